// `petstore migrate` (and `npm run migrate`): brings the configured database's schema up to
// date, then exits, without starting the server. Same configuration as the server; the server
// also migrates at start, so this is for upgrades run as their own deployment step.
import { describeFault } from '../domain/fault-description.js';
import 'reflect-metadata';
import { configuredProcess } from './support/configuration.js';
import { describeDatabase, withPoolSize } from '../config/database-config.js';
import { closeContainer, containerOptionsFrom, createContainer, type SchemaVersion, TOKENS } from '../composition/index.js';

/** Migrates the database `env` configures; answers the exit code (0 done, 1 failed). */
export async function migrate(env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const configured = configuredProcess(env, 'invalid configuration, not migrating');
  if (configured === undefined) return 1;
  const { config, logger } = configured;
  const { database } = config;
  // One connection is all a migration needs.
  const container = createContainer(containerOptionsFrom({ ...config, database: withPoolSize(database, 1) }, logger));
  try {
    const schemaVersion = await container.getAsync<SchemaVersion>(TOKENS.SchemaVersion);
    if (schemaVersion === undefined) {
      logger.info({ database: describeDatabase(database) }, 'nothing to migrate: the memory adapter has no schema');
    } else {
      logger.info({ database: describeDatabase(database), schemaVersion }, 'schema is up to date');
    }
    return 0;
  } catch (err) {
    logger.fatal({ database: describeDatabase(database), fault: describeFault(err) }, 'could not migrate');
    return 1;
  } finally {
    await closeContainer(container).catch(() => undefined);
  }
}
