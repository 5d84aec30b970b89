// The SQLite baseline's storage: better-sqlite3 on the seeded file, with the project's settings
// (openSqliteDatabase): WAL, durable commits. Every answer is synchronous, as before the split.
import Database from 'better-sqlite3';
import type { BaselineStorage, PetRow } from './baseline-handler.js';

const SYNCHRONOUS = ['OFF', 'NORMAL', 'FULL', 'EXTRA'];
const COLUMNS = 'id, name, category_id AS categoryId, status';

/** `synchronous` is the setting the bench records beside the figures (BASELINE_SYNCHRONOUS, see servers.ts). */
export function sqliteStorage(path: string, synchronous: string): BaselineStorage {
  if (!SYNCHRONOUS.includes(synchronous)) throw new Error(`BASELINE_SYNCHRONOUS must be OFF, NORMAL, FULL or EXTRA, not "${synchronous}"`);
  const db = new Database(path, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.pragma('foreign_keys = ON');
  const byId = db.prepare(`SELECT ${COLUMNS} FROM pets WHERE id = ?`);
  const page = db.prepare(`SELECT ${COLUMNS} FROM pets WHERE id > ? ORDER BY id LIMIT ?`);
  const pageByStatus = db.prepare(`SELECT ${COLUMNS} FROM pets WHERE status = ? AND id > ? ORDER BY id LIMIT ?`);
  const insert = db.prepare('INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)');
  return {
    byId: (id) => byId.get(id) as PetRow | undefined,
    page: (after, limit, status) => (status === undefined ? page.all(after, limit) : pageByStatus.all(status, after, limit)) as PetRow[],
    insert: (name, categoryId, status) => Number(insert.run(name, categoryId, status).lastInsertRowid),
    close: () => void db.close(),
  };
}
