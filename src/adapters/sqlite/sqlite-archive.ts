// StoreArchive on better-sqlite3: every table read in key order and written back with its own
// keys, in one transaction per batch.
import SqliteDatabase, { type Database, type Statement } from 'better-sqlite3';
import type * as domain from '../../domain/index.js';
import { sameContent, StoreArchiveTables } from '../shared/archive-record.js';
import {
  API_KEYS,
  CATEGORIES,
  IDEMPOTENCY_RECORDS,
  ORDERS,
  PETS,
  raiseSequence,
  type Row,
  type TableSpec,
} from './sqlite-archive-tables.js';

/** The page cache of a connection the archive uses, as PRAGMA cache_size takes it: 2,000 KiB (negative: in KiB). */
const ARCHIVE_CACHE_KIB = -2000;

class Conflict<R> extends Error {
  constructor(readonly conflicting: readonly R[]) {
    super('conflicting records');
  }
}

class SqliteArchiveTable<R> implements domain.ArchiveTable<R> {
  private readonly first: Statement<[number], Row>;
  private readonly after: Statement<unknown[], Row>;
  private readonly byKey: Statement<unknown[], Row>;
  private readonly insert: Statement<unknown[]>;
  private readonly total: Statement<[], { n: number }>;
  private readonly writeAll: (records: readonly R[]) => number;

  constructor(
    db: Database,
    private readonly spec: TableSpec<R>,
  ) {
    const { table, columns, key } = spec;
    const fields = columns.map(([, field]) => field);
    const select = `SELECT ${columns.map(([column, field]) => `${column} AS "${field}"`).join(', ')} FROM ${table}`;
    const keyColumns = key.map((field) => columns.find(([, f]) => f === field)![0]);
    const order = `ORDER BY ${keyColumns.join(', ')}`;
    this.first = db.prepare(`${select} ${order} LIMIT ?`);
    this.after = db.prepare(`${select} WHERE (${keyColumns.join(', ')}) > (${keyColumns.map(() => '?').join(', ')}) ${order} LIMIT ?`);
    this.byKey = db.prepare(`${select} WHERE ${keyColumns.map((column) => `${column} = ?`).join(' AND ')}`);
    this.insert = db.prepare(
      `INSERT INTO ${table} (${columns.map(([column]) => column).join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT DO NOTHING`,
    );
    this.total = db.prepare(`SELECT count(*) AS n FROM ${table}`);
    // One transaction per batch: a conflict (thrown) rolls back the whole batch.
    this.writeAll = db.transaction((records: readonly R[]) => {
      let written = 0;
      const conflicting: R[] = [];
      for (const record of records) {
        const row = spec.toRow(record);
        // Bound by position, in the columns' order: better-sqlite3 binds that faster than it
        // looks each name up in a named object.
        if (this.insert.run(...fields.map((field) => row[field])).changes === 1) {
          written += 1;
          continue;
        }
        const stored = this.byKey.get(...key.map((field) => row[field]));
        if (stored === undefined || !sameContent(spec.toRecord(stored), record)) conflicting.push(record);
      }
      if (conflicting.length > 0) throw new Conflict(conflicting);
      if (spec.petIdsNamed !== undefined) raiseSequence(db, PETS.table, spec.petIdsNamed(records));
      return written;
    });
  }

  async read(after: R | undefined, limit: number): Promise<readonly R[]> {
    const rows =
      after === undefined ? this.first.all(limit) : this.after.all(...this.spec.key.map((field) => this.spec.toRow(after)[field]), limit);
    return rows.map((row) => this.spec.toRecord(row));
  }

  async write(records: readonly R[]): Promise<domain.ArchiveWrite<R>> {
    try {
      return { kind: 'written', written: this.writeAll(records) };
    } catch (err) {
      if (err instanceof Conflict) return { kind: 'conflict', conflicting: err.conflicting as readonly R[] };
      throw err;
    }
  }

  async count(): Promise<number> {
    return this.total.get()!.n;
  }
}

/** Every table of a SQLite database opened by openSqliteDatabase, for export, import and copy. */
export class SqliteStoreArchive extends StoreArchiveTables implements domain.StoreArchive {
  constructor(private readonly db: Database) {
    super({
      categories: new SqliteArchiveTable(db, CATEGORIES),
      pets: new SqliteArchiveTable(db, PETS),
      orders: new SqliteArchiveTable(db, ORDERS),
      apiKeys: new SqliteArchiveTable(db, API_KEYS),
      idempotencyRecords: new SqliteArchiveTable(db, IDEMPOTENCY_RECORDS),
    });
    // Export, import and copy touch every page once, in key order, so a large page cache holds
    // nothing that is read again; it only fills as the file grows (better-sqlite3 builds SQLite
    // with 16 MB), which made their memory grow with the row count. SQLite's own default is enough.
    db.pragma(`cache_size = ${ARCHIVE_CACHE_KIB}`);
  }

  // AUTOINCREMENT keeps the largest id ever issued in sqlite_sequence (no row before the first insert).
  async petIdsIssued(): Promise<number> {
    const row = this.db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'pets'").get() as { seq: number } | undefined;
    return row?.seq ?? 0;
  }

  /**
   * On a connection of its own, in one read transaction: in WAL mode it reads the file as it
   * stood at its first read while writers go on. Not on the archive's connection, which a
   * server in this process may share: the group commit's writes would become savepoints of
   * the read transaction, and answered before they were committed. A database in memory is
   * read from a copy of it.
   */
  async snapshot<T>(read: (snapshot: domain.ArchiveSnapshot) => Promise<T>): Promise<T> {
    const reader = this.db.memory
      ? new SqliteDatabase(this.db.serialize())
      : new SqliteDatabase(this.db.name, { readonly: true, fileMustExist: true });
    try {
      reader.exec('BEGIN');
      const snapshot = new SqliteStoreArchive(reader);
      await snapshot.petIdsIssued();
      return await read(snapshot);
    } finally {
      reader.close();
    }
  }

  // AUTOINCREMENT already moves sqlite_sequence past an id inserted explicitly; this also
  // covers the ids the source issued past its largest stored one, and a table whose sequence
  // row is missing (a file written around the service).
  async continueSequences(petIdsIssued = 0): Promise<void> {
    this.db
      .transaction(() => {
        for (const [table, issued] of [
          ['pets', petIdsIssued],
          ['orders', 0],
          ['api_keys', 0],
          ['categories', 0],
        ] as const) {
          const max = (this.db.prepare(`SELECT max(id) AS id FROM ${table}`).get() as { id: number | null }).id;
          raiseSequence(this.db, table, Math.max(max ?? 0, issued));
        }
      })
      .immediate();
  }
}
