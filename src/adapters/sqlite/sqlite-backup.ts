// StoreBackup on better-sqlite3: the online backup through SQLite's backup API
// (better-sqlite3's db.backup), which copies a consistent snapshot while the server goes on
// reading and writing the file.
import { closeSync, openSync, renameSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import SqliteDatabase, { type Database } from 'better-sqlite3';
import type * as domain from '../../domain/index.js';
import { OWNER_ONLY_FILE } from './open-sqlite-database.js';

/** The most pages sqlite3_backup_step copies in one step: all of them. */
const ALL_PAGES = 0x7fffffff;

/** Opens the copy on its own and has SQLite check every page of it; throws unless it answers ok. */
function checkIntegrity(file: string): void {
  const copy = new SqliteDatabase(file, { readonly: true });
  try {
    const answer = copy.pragma('integrity_check', { simple: true });
    if (answer !== 'ok') throw new Error(`the copy failed PRAGMA integrity_check: ${String(answer)}`);
  } finally {
    copy.close();
  }
}

/** The online backup of a SQLite database: SQLite's backup API, page by page, while the server serves. */
export class SqliteStoreBackup implements domain.StoreBackup {
  constructor(private readonly db: Database) {}

  /**
   * The copy is written beside `file` and renamed onto it once complete, so a failed backup
   * never leaves half a file under the name, and only once it opens and passes integrity_check. Every page goes in one step: one read
   * transaction, a snapshot that writers (in WAL mode) do not wait for. In several steps, a
   * write by another process between two steps would restart the backup from its first page,
   * and a busy server could keep it from ever finishing.
   */
  async backup(file: string, progress?: (done: number, total: number) => void): Promise<domain.BackupOutcome> {
    // Absolute: better-sqlite3 trims the names it is given, so ' pets.db' would be copied into
    // another file than the one made here, and an empty file renamed onto the name.
    const partial = resolve(`${file}.partial`);
    rmSync(partial, { force: true });
    // Created empty first, readable by its owner alone as the database is: the backup API would create it as the umask says.
    closeSync(openSync(partial, 'wx', OWNER_ONLY_FILE));
    let pages: number;
    try {
      const { totalPages } = await this.db.backup(partial, {
        progress: ({ totalPages: total, remainingPages }) => {
          progress?.(total - remainingPages, total);
          return ALL_PAGES;
        },
      });
      pages = totalPages;
      checkIntegrity(partial);
      renameSync(partial, file);
    } finally {
      for (const leftover of [partial, `${partial}-wal`, `${partial}-shm`]) rmSync(leftover, { force: true });
    }
    progress?.(pages, pages);
    return { kind: 'taken', pages };
  }
}
