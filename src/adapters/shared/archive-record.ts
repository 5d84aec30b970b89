// What the storage adapters of StoreArchive share: their tables, kind by kind; whether a
// stored record is the one being written (so that writing it again is no change, and a
// different one is a conflict); and the pet ids that idempotency records name, which the pets'
// sequence must pass.
import type { ArchivedIdempotencyRecord, StoreArchive } from '../../domain/index.js';

/** The tables of a StoreArchive, kind by kind. */
export type ArchiveTables = Pick<StoreArchive, 'categories' | 'pets' | 'orders' | 'apiKeys' | 'idempotencyRecords'>;

/** The tables of a SQL storage's StoreArchive, each made by the adapter from its kind's table. */
export abstract class StoreArchiveTables implements ArchiveTables {
  readonly categories: ArchiveTables['categories'];
  readonly pets: ArchiveTables['pets'];
  readonly orders: ArchiveTables['orders'];
  readonly apiKeys: ArchiveTables['apiKeys'];
  readonly idempotencyRecords: ArchiveTables['idempotencyRecords'];

  protected constructor(tables: ArchiveTables) {
    ({
      categories: this.categories,
      pets: this.pets,
      orders: this.orders,
      apiKeys: this.apiKeys,
      idempotencyRecords: this.idempotencyRecords,
    } = tables);
  }
}

/** Whether `a` and `b` hold the same content: the same fields (in any order), the same values, dates by their time. */
export function sameContent(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Object.is(a, b);
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every(
    (key) =>
      Object.prototype.hasOwnProperty.call(b, key) && sameContent((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

/** The largest id of the records' pets; 0 when none names one. */
export const highestPetId = (records: readonly ArchivedIdempotencyRecord[]): number =>
  records.reduce((highest, { pet }) => Math.max(highest, pet?.id ?? 0), 0);
