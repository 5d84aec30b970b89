// Opens (and creates) the SQLite database the service stores its data in, with the
// settings the service relies on, and brings its schema up to date.
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrateSqlite } from './migrations.js';

/** The path that opens a SQLite database in memory. */
export const SQLITE_IN_MEMORY = ':memory:';

const BUSY_TIMEOUT_MS = 5000;

const sleepSync = (ms: number): void => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms) as unknown as void;

/**
 * Switches to WAL. SQLite answers SQLITE_BUSY at once, without its busy handler, when
 * another connection opens the same new file at the same moment, so the switch is retried
 * for as long as busy_timeout would have waited. Once a file is in WAL mode it stays so.
 */
function enableWal(db: Database.Database): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw err;
      sleepSync(10);
    }
  }
}

/** The permissions of a database file this service creates, and of the folders it creates for one: its owner's alone. */
export const OWNER_ONLY_FILE = 0o600;
export const OWNER_ONLY_FOLDER = 0o700;

/**
 * Opens (creating it and its folder if needed) the SQLite database at `path`, with WAL,
 * synchronous=FULL and a 5 s busy timeout, and migrates its schema. Close it when done.
 */
export function openSqliteDatabase(path: string): Database.Database {
  if (path !== SQLITE_IN_MEMORY) {
    // Readable by its owner alone: it holds webhook secrets and key digests. SQLite gives its
    // -wal and -shm files the database file's permissions; an existing file keeps its own.
    mkdirSync(dirname(path), { recursive: true, mode: OWNER_ONLY_FOLDER });
    closeSync(openSync(path, 'a', OWNER_ONLY_FILE));
  }
  const db = new Database(path);
  // Another process holding the lock (a second server on the same file, or one starting at
  // the same moment) is waited for; set first, as switching to WAL itself needs the lock.
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // WAL lets readers go on while one writer commits; synchronous=FULL makes every
  // acknowledged commit survive a power loss, not only a process crash.
  enableWal(db);
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  migrateSqlite(db);
  return db;
}
