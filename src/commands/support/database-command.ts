// What the commands that manage data in the server's database (keys, webhooks) share: where
// they write, arguments checked before the database is opened, refusing a database that keeps
// nothing or is not there, one container for the run, a failure told in one line, and a plain table.
import { describeFault } from '../../domain/fault-description.js';
import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import type * as t from 'io-ts';
import { pino } from 'pino';
import { isAbsentDatabase } from './absent-database.js';
import { configurationOrComplaint } from './configuration.js';
import { describeDatabase, isInProcessMemory } from '../../config/database-config.js';
import { closeContainer, containerOptionsFrom, createContainer } from '../../composition/index.js';

/** Where a command writes: its answer, and its complaints. */
export interface Output {
  out(text: string): void;
  err(text: string): void;
}

/**
 * Runs `run` with the service bound to `token` on the database `env` configures, and answers
 * its exit code; 1 for an invalid configuration, a database in memory (`what`, such as "keys",
 * would be gone when the command ends), a SQLite file that does not exist unless the command
 * `creates` what it stores (the server's first start then finds it), or a failure of the database.
 */
export async function onDatabase<T>(
  env: Readonly<Record<string, string | undefined>>,
  output: Output,
  what: string,
  { token, creates }: { readonly token: symbol; readonly creates: boolean },
  run: (service: T) => Promise<number>,
): Promise<number> {
  const config = configurationOrComplaint(env, 'invalid configuration', (text) => output.err(text));
  if (config === undefined) return 1;
  if (isInProcessMemory(config.database)) {
    output.err(
      `petstore: PETSTORE_DB is ${describeDatabase(config.database)}, so ${what} stored there would be gone when this command ends. ` +
        'Point PETSTORE_DB at the database of the server (a SQLite file or a postgres:// URL).\n',
    );
    return 1;
  }
  if (!creates && isAbsentDatabase(config.database, 'PETSTORE_DB', (text) => output.err(text))) return 1;
  // Logs would mix with the answer (and its JSON); failures are told on standard error below.
  const container = createContainer(containerOptionsFrom(config, pino({ level: 'silent' })));
  try {
    return await run(await container.getAsync<T>(token));
  } catch (err) {
    const { type, message } = describeFault(err);
    output.err(`petstore: could not use the database ${describeDatabase(config.database)}: ${type}: ${message}\n`);
    return 1;
  } finally {
    await closeContainer(container).catch(() => undefined);
  }
}

/** The id that `text` names in decimal, as `codec` decodes it; or `misuse`, told for any other text. */
export const decimalId = <A>(codec: t.Decoder<unknown, A>, text: string, misuse: string): E.Either<string, A> =>
  /^[0-9]{1,16}$/.test(text)
    ? pipe(
        codec.decode(Number(text)),
        E.mapLeft(() => misuse),
      )
    : E.left(misuse);

/**
 * Tells the misuse `checked` holds and answers 2, or runs `run` with its command: a command's
 * arguments are checked before its database is opened (or created).
 */
export function unlessMisused<C>(checked: E.Either<string, C>, output: Output, run: (command: C) => Promise<number>): Promise<number> {
  if (E.isRight(checked)) return run(checked.right);
  output.err(checked.left);
  return Promise.resolve(2);
}

/** Rows as a table of columns two spaces apart, the first row its heading; widths in code points. */
export const table = (rows: ReadonlyArray<readonly string[]>): string => {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => [...row[column]!].length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell + ' '.repeat(widths[column]! - [...cell].length))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
};

/** Prints `records` for a list command: as one JSON array with `--json`, as a table otherwise, or `none` when there are none. */
export function printRecords<R>(
  output: Output,
  json: boolean,
  records: readonly R[],
  views: { readonly json: (record: R) => unknown; readonly table: (records: readonly R[]) => string; readonly none: string },
): void {
  if (json) output.out(`${JSON.stringify(records.map(views.json))}\n`);
  else output.out(records.length === 0 ? `${views.none}\n` : `${views.table(records)}\n`);
}
