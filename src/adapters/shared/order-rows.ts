// Order rows as the SQL adapters read them back: one place that turns a stored row into the
// domain's order, whatever the driver's types (SQLite: integers and Unix milliseconds;
// PostgreSQL: int8 as text and timestamptz as Date).
import type { OrderId, OrderNote, OrderStatus, PetId, VersionedOrder } from '../../domain/index.js';

/** The columns of an order, as the statements that answer one select them. */
export const ORDER_COLUMNS = 'id, pet_id, status, note, placed_at, updated_at, version';

/** A stored order's columns, in the driver's own types. */
export interface OrderRow {
  readonly id: number | string;
  readonly pet_id: number | string;
  readonly status: string;
  readonly note: string | null;
  readonly placed_at: number | Date;
  readonly updated_at: number | Date;
  readonly version: number | string;
}

const time = (value: number | Date): Date => (value instanceof Date ? value : new Date(value));

/** An integer column as a number, exactly, or an error: never a rounded value. */
function exactInteger(value: number | string, column: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`${column} ${value} cannot be represented exactly (beyond ±(2^53−1))`);
  return n;
}

/** The order a row holds, with its version. */
export const versionedOrderOfRow = (row: OrderRow): VersionedOrder => ({
  order: {
    id: exactInteger(row.id, 'orders.id') as OrderId,
    petId: exactInteger(row.pet_id, 'orders.pet_id') as PetId,
    status: row.status as OrderStatus,
    placedAt: time(row.placed_at),
    updatedAt: time(row.updated_at),
    ...(row.note === null ? {} : { note: row.note as OrderNote }),
  },
  version: exactInteger(row.version, 'orders.version'),
});
