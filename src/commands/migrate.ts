// `petstore migrate` (and `npm run migrate`): brings the configured database's schema up to
// date, then exits, without starting the server. Same configuration as the server; the server
// also migrates at start, so this is for upgrades run as their own deployment step.
import { openPostgresPool } from '../adapters/postgres/create-postgres-pool.js';
import { POSTGRES_SCHEMA_VERSION } from '../adapters/postgres/migrations.js';
import { SQLITE_SCHEMA_VERSION } from '../adapters/sqlite/migrations.js';
import { openSqliteDatabase } from '../adapters/sqlite/open-sqlite-database.js';
import { loadConfig } from '../config.js';
import { type DatabaseConfig, describeDatabase } from '../database-config.js';
import { createLogger, describeFault } from '../logger.js';

/** Opens the database (which migrates it) and closes it again; answers the schema version. */
async function migrateDatabase(database: DatabaseConfig): Promise<number | undefined> {
  switch (database.kind) {
    case 'memory':
      return undefined;
    case 'sqlite':
      openSqliteDatabase(database.path).close();
      return SQLITE_SCHEMA_VERSION;
    case 'postgres': {
      // One connection is all a migration needs.
      const pool = await openPostgresPool({ url: database.url, poolSize: 1 });
      await pool.end();
      return POSTGRES_SCHEMA_VERSION;
    }
  }
}

/** Migrates the database `env` configures; answers the exit code (0 done, 1 failed). */
export async function migrate(env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const loaded = loadConfig(env);
  if (loaded._tag === 'Left') {
    process.stderr.write(`petstore: invalid configuration, not migrating:\n${loaded.left.map((l) => `  ${l}\n`).join('')}`);
    return 1;
  }
  const { database, logLevel } = loaded.right;
  const logger = createLogger(logLevel);
  try {
    const schemaVersion = await migrateDatabase(database);
    if (schemaVersion === undefined) {
      logger.info({ database: describeDatabase(database) }, 'nothing to migrate: the memory adapter has no schema');
    } else {
      logger.info({ database: describeDatabase(database), schemaVersion }, 'schema is up to date');
    }
    return 0;
  } catch (err) {
    logger.fatal({ database: describeDatabase(database), fault: describeFault(err) }, 'could not migrate');
    return 1;
  }
}
