// `petstore backup <file>`: an online, consistent copy of the SQLite database PETSTORE_DB
// names, taken while a server keeps serving and writing (SQLite's backup API), then opened
// and checked by the adapter. PostgreSQL and memory refuse: pg_dump is PostgreSQL's tool.
import { describeFault } from '../domain/fault-description.js';
import { isAbsentDatabase } from './support/absent-database.js';
import { configurationOrComplaint } from './support/configuration.js';
import type { DataIo, DataOptions } from './support/data-io.js';
import { unwritableFile } from './support/output-file.js';
import { startProgress } from './support/progress.js';
import { cannotUse, openBackup } from './support/store-session.js';
import { describeDatabase } from '../config/database-config.js';

/** Backs up the database `env` configures to `file`; answers the exit code (0 taken, 1 failed, 2 refused for this storage). */
export async function backup(
  file: string,
  options: DataOptions,
  env: Readonly<Record<string, string | undefined>>,
  io: DataIo,
): Promise<number> {
  const config = configurationOrComplaint(env, 'invalid configuration', (text) => io.stderr.write(text));
  if (config === undefined) return 1;
  const { database } = config;
  if (database.kind === 'sqlite' && database.path === ':memory:') {
    io.stderr.write('petstore: PETSTORE_DB is :memory:, a database in this process only: there is nothing to back up.\n');
    return 2;
  }
  if (isAbsentDatabase(database, 'PETSTORE_DB', (text) => io.stderr.write(text))) return 1;
  // Told as the target's fault, before anything is opened: the copy would fail at its first page.
  const unwritable = database.kind === 'sqlite' ? unwritableFile(file, database) : undefined;
  if (unwritable !== undefined) {
    io.stderr.write(`petstore: cannot write the backup to ${file}: ${unwritable}.\n`);
    return 1;
  }
  let store;
  try {
    store = await openBackup(config, database);
  } catch (err) {
    io.stderr.write(cannotUse(database, err));
    return 1;
  }
  const progress = startProgress({ label: 'backup (pages)', total: undefined, quiet: options.quiet, stream: io.stderr });
  let done = 0;
  try {
    const outcome = await store.backup.backup(file, (pages) => {
      progress.add(pages - done);
      done = pages;
    });
    progress.stop();
    if (outcome.kind === 'unsupported') {
      io.stderr.write(
        outcome.tool === undefined
          ? `petstore: PETSTORE_DB is ${describeDatabase(database)}: there is nothing to back up.\n`
          : `petstore: backup copies a SQLite file; the database is ${describeDatabase(database)}. ` +
              `Back it up with ${outcome.tool} (e.g. ${outcome.tool} --format=custom --file=petstore.dump '<the URL>'), or take an export with "petstore export --all".\n`,
      );
      return 2;
    }
    io.stdout.write(`Backed up ${describeDatabase(database)} to ${file} (${outcome.pages} pages).\n`);
    return 0;
  } catch (err) {
    progress.stop();
    const { type, message } = describeFault(err);
    io.stderr.write(`petstore: could not back up ${describeDatabase(database)} to ${file}: ${type}: ${message}\n`);
    return 1;
  } finally {
    await store.close().catch(() => undefined);
  }
}
