// `petstore copy --from <database> --to <database>`: every record of one store into another
// (a SQLite file into PostgreSQL, say), in batches that add what is missing and leave what is
// there, identical, as it is: interrupted (Ctrl-C, SIGKILL) and run again, it finishes with
// nothing lost and nothing doubled. The ids and versions are kept, and the target's sequences
// continued past the ids the source issued (its deleted pets' included); no change event is written.
// At the end both sides' counts and the SHA-256 of their content (the canonical export lines
// of every record, without the header, computed the same way on both) are printed; they must be equal.
import { describeFault } from '../domain/fault-description.js';
import * as E from 'fp-ts/lib/Either.js';
import { isAbsentDatabase } from './support/absent-database.js';
import { databaseFileAt } from './support/database-files.js';
import { configurationOrComplaint } from './support/configuration.js';
import type { DataIo, DataOptions } from './support/data-io.js';
import { ARCHIVE_KINDS, type ArchiveLine, lineOf } from '../export-format/archive-format.js';
import { startProgress } from './support/progress.js';
import { ContentDigest, countOf, type OpenStore, openStoreOrComplain, pagesOf, tableOf, textOf } from './support/store-session.js';
import type { ArchiveSnapshot } from '../domain/index.js';
import { type DatabaseConfig, describeDatabase, isInProcessMemory, parseDatabase, withPoolSize } from '../config/database-config.js';

export interface CopyRequest extends DataOptions {
  readonly from: string;
  readonly to: string;
}

/** The database `text` names, or why it cannot be copied from or to. */
function databaseOf(option: string, text: string): E.Either<string, DatabaseConfig> {
  const location = parseDatabase(text);
  if (E.isLeft(location)) return E.left(`--${option} ${location.left}`);
  if (isInProcessMemory(location.right))
    return E.left(`--${option} names a database in this process's memory, which is empty at start and gone at exit`);
  return E.right(withPoolSize(location.right, 2));
}

/** Whether `a` and `b` are SQLite files of which one is the other, or its -wal or -shm, whatever paths name them. */
const isOneSqliteDatabase = (a: DatabaseConfig, b: DatabaseConfig): boolean =>
  a.kind === 'sqlite' &&
  b.kind === 'sqlite' &&
  (databaseFileAt(b.path, a.path) !== undefined || databaseFileAt(a.path, b.path) !== undefined);

async function copyInto(
  source: ArchiveSnapshot,
  target: OpenStore,
  request: CopyRequest,
  io: DataIo,
): Promise<{ digest: ContentDigest; conflict?: string }> {
  const progress = startProgress({
    label: 'copy',
    total: await countOf(source, ARCHIVE_KINDS),
    quiet: request.quiet,
    stream: io.stderr,
  });
  const digest = new ContentDigest();
  // In the snapshot, as an export reads it: ids the source deleted are not given again by the target.
  const petIdsIssued = await source.petIdsIssued();
  try {
    for await (const page of pagesOf(source, ARCHIVE_KINDS)) {
      const kind = page[0]!.kind;
      const outcome = await tableOf(target.archive, kind).write(page.map((line) => line.record));
      if (outcome.kind === 'conflict') {
        const first = lineOf({ kind, record: outcome.conflicting[0] } as ArchiveLine);
        return {
          digest,
          conflict: `${outcome.conflicting.length} record(s) of the source are stored in the target with other content, e.g. ${first}`,
        };
      }
      // After every batch, not once at the end: a target left by an interrupted copy gives new ids past what it holds.
      await target.archive.continueSequences(petIdsIssued);
      digest.add(page, textOf(page));
      progress.add(page.length);
    }
    await target.archive.continueSequences(petIdsIssued);
    return { digest };
  } finally {
    progress.stop();
  }
}

/** The digest of everything in `store`, read as the copy reads it. */
async function digestOf(store: OpenStore): Promise<ContentDigest> {
  return store.archive.snapshot(async (snapshot) => {
    const digest = new ContentDigest();
    for await (const page of pagesOf(snapshot, ARCHIVE_KINDS)) digest.add(page);
    return digest;
  });
}

/** Copies one store into another; answers the exit code (0 copied and equal, 1 failed or different, 2 misused). */
export async function copyStore(request: CopyRequest, env: Readonly<Record<string, string | undefined>>, io: DataIo): Promise<number> {
  const from = databaseOf('from', request.from);
  const to = databaseOf('to', request.to);
  for (const problem of [from, to]) {
    if (E.isLeft(problem)) {
      io.stderr.write(`petstore: copy: ${problem.left}\n`);
      return 2;
    }
  }
  if (E.isLeft(from) || E.isLeft(to)) return 2;
  if (request.from === request.to || isOneSqliteDatabase(from.right, to.right)) {
    io.stderr.write('petstore: copy: --from and --to name the same database (or one of its files)\n');
    return 2;
  }
  // PETSTORE_DB is not used; the other settings (pool timeouts…) are the server's.
  const config = configurationOrComplaint({ ...env, PETSTORE_DB: 'memory' }, 'invalid configuration', (text) => io.stderr.write(text));
  if (config === undefined) return 1;
  if (isAbsentDatabase(from.right, '--from', (text) => io.stderr.write(text))) return 1;
  const opened: OpenStore[] = [];
  try {
    for (const database of [from.right, to.right]) {
      const store = await openStoreOrComplain(config, database, (text) => io.stderr.write(text));
      if (store === undefined) return 1;
      opened.push(store);
    }
    const [source, target] = opened as [OpenStore, OpenStore];
    const copied = await source.archive.snapshot((snapshot) => copyInto(snapshot, target, request, io));
    if (copied.conflict !== undefined) {
      io.stderr.write(`petstore: copy: ${copied.conflict}. Nothing of that batch was written; the target is left as it is.\n`);
      return 1;
    }
    const landed = await digestOf(target);
    const sides = [
      ['from', describeDatabase(from.right), copied.digest],
      ['to', describeDatabase(to.right), landed],
    ] as const;
    const [sourceHex, targetHex] = [copied.digest.hex(), landed.hex()];
    for (const [side, name, digest] of sides)
      io.stdout.write(`${side.padEnd(4)} ${name}: ${digest.rows} records, sha256 ${side === 'from' ? sourceHex : targetHex}\n`);
    if (sourceHex !== targetHex || copied.digest.rows !== landed.rows) {
      io.stderr.write(
        'petstore: copy: the two sides differ: the target holds records the source does not (or the source changed during the copy)\n',
      );
      return 1;
    }
    return 0;
  } catch (err) {
    const { type, message } = describeFault(err);
    io.stderr.write(`petstore: copy failed: ${type}: ${message}\n`);
    return 1;
  } finally {
    for (const store of opened) await store.close().catch(() => undefined);
  }
}
