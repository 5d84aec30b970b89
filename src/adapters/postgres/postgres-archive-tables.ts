// The tables of PostgresStoreArchive: each one's columns with their types, its key, and how a
// row becomes a record and back.
import type * as domain from '../../domain/index.js';
import { categoryNameKey } from '../../domain/index.js';
import { scopesColumn, scopesOfColumn } from '../shared/api-key-row.js';
import { highestPetId } from '../shared/archive-record.js';
import { petFromJsonb } from './jsonb-pet.js';
import { safeIntegerFromInt8 } from './postgres-pet-rows.js';

export type Row = Record<string, unknown>;

/** A column: its name, the Pet (or record) field it is read as, and its SQL type (for unnest). */
type Column = readonly [column: string, field: string, type: string];

/**
 * The columns of pets this archive reads and writes, each as the ArchivedPet field it holds,
 * with its type. The only list of them here: a new column of pets (and field of Pet) is one more line.
 */
const PET_COLUMNS: readonly (readonly [column: string, field: keyof domain.ArchivedPet, type: string])[] = [
  ['id', 'id', 'bigint'],
  ['name', 'name', 'text'],
  ['category_id', 'categoryId', 'bigint'],
  ['status', 'status', 'text'],
  ['version', 'version', 'bigint'],
];

/** How one table maps to its records: its columns (as the fields of a row, with their types), its key, and the conversions. */
export interface TableSpec<R> {
  readonly table: string;
  readonly columns: readonly Column[];
  /** The fields of the key, in sort order. */
  readonly key: readonly string[];
  /** Whether the key is an identity column (GENERATED ALWAYS), which an insert must override. */
  readonly identity: boolean;
  toRecord(row: Row): R;
  toRow(record: R): Row;
  /** The largest pet id that `records` name, which the pets' sequence must pass once they are written. */
  petIdsNamed?(records: readonly R[]): number;
}

/** bigint columns come as decimal strings: numbers, exactly, or a RangeError. */
const withIntegers = (row: Row, columns: readonly Column[]): Row => {
  for (const [, field, type] of columns) {
    if (type === 'bigint' && row[field] !== null) row[field] = safeIntegerFromInt8(row[field] as string, field);
  }
  return row;
};

/** A table keyed by its identity column `id`, whose records are its rows with their int8 columns as numbers. */
const identityTable = <R>(table: string, columns: readonly Column[]): TableSpec<R> => ({
  table,
  columns,
  key: ['id'],
  identity: true,
  toRecord: (row) => withIntegers(row, columns) as unknown as R,
  toRow: (record) => record as unknown as Row,
});

export const PETS = identityTable<domain.ArchivedPet>('pets', PET_COLUMNS);

const categoryRows = identityTable<Row>('categories', [
  ['id', 'id', 'bigint'],
  ['name', 'name', 'text'],
  ['name_key', 'nameKey', 'text'],
  ['version', 'version', 'bigint'],
]);
/** The categories, each with the key of its name (categoryNameKey), which the table keeps unique. */
export const CATEGORIES: TableSpec<domain.ArchivedCategory> = {
  ...(categoryRows as unknown as TableSpec<domain.ArchivedCategory>),
  toRecord: (row) => {
    const { nameKey: _nameKey, ...category } = categoryRows.toRecord(row);
    return category as unknown as domain.ArchivedCategory;
  },
  toRow: (category) => ({ ...category, nameKey: categoryNameKey(category.name) }),
};

/** The columns of `types` (each field's SQL type), in its order, each named as its field is in snake_case. */
const columnsOf = (types: Readonly<Record<string, string>>): readonly Column[] =>
  Object.entries(types).map(([field, type]) => [field.replace(/[A-Z]/g, (capital) => `_${capital.toLowerCase()}`), field, type]);

const API_KEY_COLUMNS = columnsOf({
  id: 'bigint',
  digest: 'text',
  callerId: 'text',
  label: 'text',
  scopes: 'text',
  createdAt: 'timestamptz',
  expiresAt: 'timestamptz',
  revokedAt: 'timestamptz',
});
const apiKeyRows = identityTable<Row>('api_keys', API_KEY_COLUMNS);
/** The api_keys table, its scopes column read and written as the SQL stores keep it. */
export const API_KEYS: TableSpec<domain.ArchivedApiKey> = {
  ...identityTable<domain.ArchivedApiKey>('api_keys', API_KEY_COLUMNS),
  toRecord: (row) => {
    const record = apiKeyRows.toRecord(row);
    return { ...record, scopes: scopesOfColumn(record['scopes'] as string | null) } as unknown as domain.ArchivedApiKey;
  },
  toRow: (key) => ({ ...key, scopes: scopesColumn(key.scopes) }),
};

export const IDEMPOTENCY_RECORDS: TableSpec<domain.ArchivedIdempotencyRecord> = {
  table: 'idempotency_keys',
  columns: columnsOf({
    scope: 'text',
    key: 'text',
    token: 'text',
    fingerprint: 'text',
    pet: 'jsonb',
    expiresAt: 'timestamptz',
    leaseExpiresAt: 'timestamptz',
  }),
  key: ['scope', 'key'],
  identity: false,
  toRecord: (row) => {
    const record = row as unknown as domain.ArchivedIdempotencyRecord;
    return { ...record, pet: record.pet === null ? null : petFromJsonb(record.pet) };
  },
  // pg sends a JS object as JSON, but an array of them as a PostgreSQL array literal: as text, cast back.
  toRow: (record) => ({ ...record, pet: record.pet === null ? null : JSON.stringify(record.pet) }),
  petIdsNamed: highestPetId,
};

/** Orders (interface 1.3); the key they were placed with is not archived (NULL when restored). */
export const ORDERS = identityTable<domain.ArchivedOrder>(
  'orders',
  columnsOf({
    id: 'bigint',
    petId: 'bigint',
    status: 'text',
    note: 'text',
    placedAt: 'timestamptz',
    updatedAt: 'timestamptz',
    version: 'bigint',
  }),
);
