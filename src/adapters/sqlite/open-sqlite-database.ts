// Opens (and creates) the SQLite database the service stores its data in, with the
// settings the service relies on, and brings its schema up to date.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrateSqlite } from './migrations.js';

export const SQLITE_IN_MEMORY = ':memory:';

export function openSqliteDatabase(path: string): Database.Database {
  if (path !== SQLITE_IN_MEMORY) mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  // WAL lets readers go on while one writer commits; synchronous=FULL makes every
  // acknowledged commit survive a power loss, not only a process crash.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  // Another process holding the write lock (a second server on the same file) is waited for.
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  migrateSqlite(db);
  return db;
}
