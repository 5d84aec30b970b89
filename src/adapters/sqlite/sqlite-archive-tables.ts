// The tables of SqliteStoreArchive: each one's columns, its key, and how a row becomes a record
// and back; and the sequence every id of a table must stay below.
import type { Database } from 'better-sqlite3';
import type * as domain from '../../domain/index.js';
import { categoryNameKey } from '../../domain/index.js';
import { scopesColumn, scopesOfColumn } from '../shared/api-key-row.js';
import { highestPetId } from '../shared/archive-record.js';

/**
 * The columns of pets this archive reads and writes, each as the ArchivedPet field it holds.
 * The only list of them here: a new column of pets (and field of Pet) is one more line.
 */
const PET_COLUMNS: readonly (readonly [column: string, field: keyof domain.ArchivedPet])[] = [
  ['id', 'id'],
  ['name', 'name'],
  ['category_id', 'categoryId'],
  ['status', 'status'],
  ['version', 'version'],
];

export type Row = Record<string, unknown>;

/** How one table maps to its records: its columns (as the fields of a row), its key, and the conversions. */
export interface TableSpec<R> {
  readonly table: string;
  /** Column and the name it is read as (`column AS "field"`), in the order of the table. */
  readonly columns: readonly (readonly [column: string, field: string])[];
  /** The fields of the key, in sort order. */
  readonly key: readonly string[];
  toRecord(row: Row): R;
  toRow(record: R): Row;
  /** The largest pet id that `records` name, which the pets' sequence must pass once they are written. */
  petIdsNamed?(records: readonly R[]): number;
}

/** Makes the sequence of `table` at least `last` (creating its row, missing in a file written around the service); never lowers it. */
export function raiseSequence(db: Database, table: string, last: number): void {
  if (last === 0) return;
  const updated = db.prepare('UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?').run(last, table).changes;
  if (updated === 0) db.prepare('INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)').run(table, last);
}

export const PETS: TableSpec<domain.ArchivedPet> = {
  table: 'pets',
  columns: PET_COLUMNS,
  key: ['id'],
  toRecord: (row) => row as unknown as domain.ArchivedPet,
  toRow: (pet) => pet as unknown as Row,
};

export const API_KEYS: TableSpec<domain.ArchivedApiKey> = {
  table: 'api_keys',
  columns: [
    ['id', 'id'],
    ['digest', 'digest'],
    ['caller_id', 'callerId'],
    ['label', 'label'],
    ['scopes', 'scopes'],
    ['created_at', 'createdAt'],
    ['expires_at', 'expiresAt'],
    ['revoked_at', 'revokedAt'],
  ],
  key: ['id'],
  toRecord: (row) =>
    ({
      ...row,
      scopes: scopesOfColumn(row['scopes'] as string | null),
      createdAt: new Date(row['createdAt'] as number),
      expiresAt: row['expiresAt'] === null ? null : new Date(row['expiresAt'] as number),
      revokedAt: row['revokedAt'] === null ? null : new Date(row['revokedAt'] as number),
    }) as domain.ArchivedApiKey,
  toRow: (key) => ({
    ...key,
    scopes: scopesColumn(key.scopes),
    createdAt: key.createdAt.getTime(),
    expiresAt: key.expiresAt?.getTime() ?? null,
    revokedAt: key.revokedAt?.getTime() ?? null,
  }),
};

export const IDEMPOTENCY_RECORDS: TableSpec<domain.ArchivedIdempotencyRecord> = {
  table: 'idempotency_keys',
  columns: [
    ['scope', 'scope'],
    ['key', 'key'],
    ['token', 'token'],
    ['fingerprint', 'fingerprint'],
    ['pet', 'pet'],
    ['expires_at', 'expiresAt'],
    ['lease_expires_at', 'leaseExpiresAt'],
  ],
  // TEXT compares as BINARY: UTF-8 bytes, which is code point order.
  key: ['scope', 'key'],
  toRecord: (row) =>
    ({
      ...row,
      pet: row['pet'] === null ? null : (JSON.parse(row['pet'] as string) as domain.Pet),
      expiresAt: new Date(row['expiresAt'] as number),
      leaseExpiresAt: new Date(row['leaseExpiresAt'] as number),
    }) as domain.ArchivedIdempotencyRecord,
  toRow: (record) => ({
    ...record,
    pet: record.pet === null ? null : JSON.stringify(record.pet),
    expiresAt: record.expiresAt.getTime(),
    leaseExpiresAt: record.leaseExpiresAt.getTime(),
  }),
  petIdsNamed: highestPetId,
};

/** Orders (interface 1.3), their times as Unix ms; the key they were placed with is not archived (NULL when restored). */
export const ORDERS: TableSpec<domain.ArchivedOrder> = {
  table: 'orders',
  columns: [
    ['id', 'id'],
    ['pet_id', 'petId'],
    ['status', 'status'],
    ['note', 'note'],
    ['placed_at', 'placedAt'],
    ['updated_at', 'updatedAt'],
    ['version', 'version'],
  ],
  key: ['id'],
  toRecord: (row) =>
    ({
      ...row,
      placedAt: new Date(row['placedAt'] as number),
      updatedAt: new Date(row['updatedAt'] as number),
    }) as unknown as domain.ArchivedOrder,
  toRow: (order) => ({ ...order, placedAt: order.placedAt.getTime(), updatedAt: order.updatedAt.getTime() }),
};

/** The categories, each with the key of its name (categoryNameKey), which the table keeps unique. */
export const CATEGORIES: TableSpec<domain.ArchivedCategory> = {
  table: 'categories',
  columns: [
    ['id', 'id'],
    ['name', 'name'],
    ['name_key', 'nameKey'],
    ['version', 'version'],
  ],
  key: ['id'],
  toRecord: ({ nameKey: _nameKey, ...row }) => row as unknown as domain.ArchivedCategory,
  toRow: (category) => ({ ...category, nameKey: categoryNameKey(category.name) }),
};
