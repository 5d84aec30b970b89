// StoreArchive on PostgreSQL: every table read in key order (keyset pages, so memory stays
// flat whatever the table's size) and written back with its own keys, one batch per
// statement (unnest of one array per column) in one transaction; the identity sequences moved
// past the largest id written, the pets' also past every pet an idempotency record names. A
// backup is pg_dump's: StoreBackup refuses.
import type { Pool, PoolClient } from 'pg';
import type * as domain from '../../domain/index.js';
import { sameContent, StoreArchiveTables } from '../shared/archive-record.js';
import { INSERT_ORDER_LOCK } from './postgres-pet-statements.js';
import { classifyPostgresError } from './postgres-errors.js';
import { safeIntegerFromInt8 } from './postgres-pet-rows.js';
import { API_KEYS, CATEGORIES, IDEMPOTENCY_RECORDS, ORDERS, PETS, type Row, type TableSpec } from './postgres-archive-tables.js';
import { inTransaction } from './in-transaction.js';

// Keys compare by code point, as SQLite's BINARY and the memory adapter do, whatever the database's collation.
const sortable = (column: string, type: string) => (type === 'text' ? `${column} COLLATE "C"` : column);

/** Where reads go: the pool, or the one connection of a snapshot. */
type Reader = Pick<PoolClient, 'query'>;

/**
 * setval of the identity sequence of `table` to its largest id, or to `issued` when higher, when
 * that is above what it handed out; never lower.
 */
async function continueSequence(client: Reader, table: 'pets' | 'orders' | 'api_keys' | 'categories', issued: number): Promise<void> {
  await client
    .query(
      `SELECT setval(s.seq, m.id) FROM (SELECT pg_get_serial_sequence($1, 'id')::regclass AS seq) s,
              (SELECT greatest(max(id), $2::bigint) AS id FROM ${table}) m
        WHERE m.id > 0 AND m.id > coalesce(pg_sequence_last_value(s.seq), 0)`,
      [table, issued],
    )
    .catch((err: unknown) => {
      throw classifyPostgresError(err);
    });
}

class PostgresArchiveTable<R> implements domain.ArchiveTable<R> {
  private readonly selectFirst: string;
  private readonly selectAfter: string;
  private readonly insert: string;
  private readonly selectByKeys: string;

  constructor(
    private readonly pool: Pool,
    private readonly spec: TableSpec<R>,
    private readonly lockFirst: boolean,
    private readonly reader: Reader = pool,
  ) {
    const { table, columns, key } = spec;
    const keyColumns = key.map((field) => columns.find(([, f]) => f === field)!);
    const select = `SELECT ${columns.map(([column, field]) => `${column} AS "${field}"`).join(', ')} FROM ${table}`;
    const order = `ORDER BY ${keyColumns.map(([column, , type]) => sortable(column, type)).join(', ')}`;
    const n = keyColumns.length;
    this.selectFirst = `${select} ${order} LIMIT $1`;
    this.selectAfter =
      `${select} WHERE (${keyColumns.map(([column, , type]) => sortable(column, type)).join(', ')}) > ` +
      `(${keyColumns.map(([, , type], i) => sortable(`$${i + 1}::${type}`, type)).join(', ')}) ${order} LIMIT $${n + 1}`;
    this.insert =
      `INSERT INTO ${table} (${columns.map(([column]) => column).join(', ')})${spec.identity ? ' OVERRIDING SYSTEM VALUE' : ''} ` +
      `SELECT * FROM unnest(${columns.map(([, , type], i) => `$${i + 1}::${type}[]`).join(', ')}) ON CONFLICT DO NOTHING ` +
      `RETURNING ${keyColumns.map(([column, field]) => `${column} AS "${field}"`).join(', ')}`;
    this.selectByKeys =
      `${select} WHERE (${keyColumns.map(([column]) => column).join(', ')}) IN ` +
      `(SELECT * FROM unnest(${keyColumns.map(([, , type], i) => `$${i + 1}::${type}[]`).join(', ')}))`;
  }

  async read(after: R | undefined, limit: number): Promise<readonly R[]> {
    const values = after === undefined ? [limit] : [...this.spec.key.map((field) => this.spec.toRow(after)[field]), limit];
    try {
      const { rows } = await this.reader.query<Row>(after === undefined ? this.selectFirst : this.selectAfter, values);
      return rows.map((row) => this.spec.toRecord(row));
    } catch (err) {
      throw classifyPostgresError(err);
    }
  }

  async write(records: readonly R[]): Promise<domain.ArchiveWrite<R>> {
    if (records.length === 0) return { kind: 'written', written: 0 };
    return this.inTransaction(async (client) => {
      // Pets are written under the lock the server's creates take, so ids still become visible in
      // id order; idempotency records too, so that no create takes an id while their pets' pass it.
      if (this.lockFirst) await client.query(`SELECT pg_advisory_xact_lock(${INSERT_ORDER_LOCK})`);
      const outcome = await this.insertMissing(client, records);
      if (outcome.kind === 'written' && this.spec.petIdsNamed !== undefined) {
        await continueSequence(client, 'pets', this.spec.petIdsNamed(records));
      }
      return outcome;
    });
  }

  /** Inserts the records whose keys are not stored; the others must be stored with the same content, or are conflicts. */
  private async insertMissing(client: PoolClient, records: readonly R[]): Promise<domain.ArchiveWrite<R> & { rollback?: boolean }> {
    const rows = records.map((record) => this.spec.toRow(record));
    const keyOf = (row: Row) => JSON.stringify(this.spec.key.map((field) => String(row[field])));
    const { rows: inserted } = await client.query<Row>(
      this.insert,
      this.spec.columns.map(([, field]) => rows.map((row) => row[field])),
    );
    if (inserted.length === rows.length) return { kind: 'written', written: inserted.length };
    const added = new Set(inserted.map(keyOf));
    const others = rows.flatMap((row, i) => (added.has(keyOf(row)) ? [] : [i]));
    const { rows: found } = await client.query<Row>(
      this.selectByKeys,
      this.spec.key.map((field) => others.map((i) => rows[i]![field])),
    );
    const stored = new Map(found.map((row) => [keyOf(row), this.spec.toRecord(row)]));
    const conflicting = others.map((i) => records[i]!).filter((record, j) => !sameContent(stored.get(keyOf(rows[others[j]!]!)), record));
    if (conflicting.length > 0) return { kind: 'conflict', conflicting, rollback: true };
    return { kind: 'written', written: inserted.length };
  }

  async count(): Promise<number> {
    const { rows } = await this.reader.query<{ n: string }>(`SELECT count(*) AS n FROM ${this.spec.table}`).catch((err: unknown) => {
      throw classifyPostgresError(err);
    });
    return Number(rows[0]!.n);
  }

  private inTransaction(
    work: (client: PoolClient) => Promise<domain.ArchiveWrite<R> & { rollback?: boolean }>,
  ): Promise<domain.ArchiveWrite<R>> {
    return inTransaction(this.pool, async (client) => {
      const { rollback, ...outcome } = await work(client);
      return { result: outcome as domain.ArchiveWrite<R>, rollback: rollback === true };
    });
  }
}

/** Every table of the database of a pool opened by openPostgresPool, for export, import and copy. */
export class PostgresStoreArchive extends StoreArchiveTables implements domain.StoreArchive {
  /** `reader`: where reads go (a snapshot's connection), when not to the pool. */
  constructor(
    private readonly pool: Pool,
    private readonly reader: Reader = pool,
  ) {
    super({
      categories: new PostgresArchiveTable(pool, CATEGORIES, false, reader),
      pets: new PostgresArchiveTable(pool, PETS, true, reader),
      orders: new PostgresArchiveTable(pool, ORDERS, false, reader),
      apiKeys: new PostgresArchiveTable(pool, API_KEYS, false, reader),
      idempotencyRecords: new PostgresArchiveTable(pool, IDEMPOTENCY_RECORDS, true, reader),
    });
  }

  /**
   * The identity sequence's last value (0 before its first; a value cached by a session counts), or the
   * largest stored id when above it: an id written by an import does not move the sequence until continueSequences.
   * A sequence is outside transactions: in a snapshot, it is at least every id the snapshot holds.
   */
  async petIdsIssued(): Promise<number> {
    const { rows } = await this.reader
      .query<{ issued: string }>(
        `SELECT greatest(coalesce(pg_sequence_last_value(pg_get_serial_sequence('pets', 'id')::regclass), 0),
                         coalesce((SELECT max(id) FROM pets), 0)) AS issued`,
      )
      .catch((err: unknown) => {
        throw classifyPostgresError(err);
      });
    return safeIntegerFromInt8(rows[0]!.issued, 'petIdsIssued');
  }

  /** One connection in a read-only REPEATABLE READ transaction: every read sees what was committed before its first. */
  async snapshot<T>(read: (snapshot: domain.ArchiveSnapshot) => Promise<T>): Promise<T> {
    return inTransaction(
      this.pool,
      async (client) => {
        const snapshot = new PostgresStoreArchive(this.pool, client);
        await snapshot.petIdsIssued();
        return { result: await read(snapshot) };
      },
      (client) => client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY'),
    );
  }

  async continueSequences(petIdsIssued = 0): Promise<void> {
    await continueSequence(this.pool, 'pets', petIdsIssued);
    await continueSequence(this.pool, 'orders', 0);
    await continueSequence(this.pool, 'api_keys', 0);
    await continueSequence(this.pool, 'categories', 0);
  }
}

/** PostgreSQL's backups are pg_dump's (or the server's own base backups): this refuses, naming the tool. */
export const postgresStoreBackup: domain.StoreBackup = {
  backup: (): Promise<domain.BackupOutcome> => Promise.resolve({ kind: 'unsupported', tool: 'pg_dump' }),
};
