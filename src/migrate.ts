// `npm run migrate`: brings the configured database's schema up to date, then exits, without
// starting the server. Same configuration as the server; the server also migrates at start,
// so this is for upgrades run as their own deployment step.
import { openPostgresPool } from './adapters/postgres/create-postgres-pool.js';
import { POSTGRES_SCHEMA_VERSION } from './adapters/postgres/migrations.js';
import { SQLITE_SCHEMA_VERSION } from './adapters/sqlite/migrations.js';
import { openSqliteDatabase } from './adapters/sqlite/open-sqlite-database.js';
import { type DatabaseConfig, describeDatabase, loadConfig } from './config.js';
import { createLogger, describeFault } from './logger.js';

/** Opens the database (which migrates it) and closes it again; answers the schema version. */
async function migrate(database: DatabaseConfig): Promise<number | undefined> {
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

async function main(): Promise<void> {
  const loaded = loadConfig(process.env);
  if (loaded._tag === 'Left') {
    process.stderr.write(`petstore: invalid configuration, not migrating:\n${loaded.left.map((l) => `  ${l}\n`).join('')}`);
    process.exitCode = 1;
    return;
  }
  const { database, logLevel } = loaded.right;
  const logger = createLogger(logLevel);
  try {
    const schemaVersion = await migrate(database);
    if (schemaVersion === undefined) {
      logger.info({ database: describeDatabase(database) }, 'nothing to migrate: the memory adapter has no schema');
    } else {
      logger.info({ database: describeDatabase(database), schemaVersion }, 'schema is up to date');
    }
  } catch (err) {
    logger.fatal({ database: describeDatabase(database), fault: describeFault(err) }, 'could not migrate');
    process.exitCode = 1;
  }
}

await main();
