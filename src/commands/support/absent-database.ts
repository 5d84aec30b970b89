// Commands that read or change what a database already holds refuse a SQLite file that is not
// there. Opening it would create an empty database, folders included, so a mistyped path
// would back up, export, list or change nothing, and report success.
import { existsSync } from 'node:fs';
import { type DatabaseConfig, describeDatabase, isInProcessMemory } from '../../config/database-config.js';

/**
 * Whether `database`, named by `setting` (PETSTORE_DB, --from), is a SQLite file that does not
 * exist; if so, `complain` was told.
 */
export function isAbsentDatabase(database: DatabaseConfig, setting: string, complain: (text: string) => void): boolean {
  if (database.kind !== 'sqlite' || isInProcessMemory(database) || existsSync(database.path)) return false;
  complain(
    `petstore: ${setting} names ${describeDatabase(database)}, which does not exist. ` +
      `Point ${setting} at the database of the server (a SQLite file or a postgres:// URL); the server creates its file at its first start.\n`,
  );
  return true;
}
