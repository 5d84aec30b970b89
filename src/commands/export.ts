// `petstore export [--out file] [--all]`: every pet of the store PETSTORE_DB names as NDJSON
// (archive-format.ts), in id order, read in keyset pages so memory stays flat; with --all, the
// categories, stored API keys (digests) and idempotency records too. Everything is read from one snapshot
// of the store, so an export taken beside a running server is as the store stood at one moment.
import { describeFault } from '../domain/fault-description.js';
import { closeSync, createWriteStream, openSync, renameSync, rmSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { isAbsentDatabase } from './support/absent-database.js';
import { configurationOrComplaint } from './support/configuration.js';
import type { DataIo, DataOptions } from './support/data-io.js';
import { ARCHIVE_KINDS, type ArchiveKind, headerLine } from '../export-format/archive-format.js';
import { unwritableFile } from './support/output-file.js';
import { startProgress } from './support/progress.js';
import { cannotUse, countOf, openStoreOrComplain, pagesOf, textOf, writeText } from './support/store-session.js';
import type { ArchiveSnapshot } from '../domain/index.js';

export interface ExportRequest extends DataOptions {
  /** The file to write (replaced once complete); standard output when undefined. */
  readonly out: string | undefined;
  /** API keys and idempotency records too. */
  readonly all: boolean;
}

/** The kinds an export with or without --all holds: the store's content (pets, orders), and with --all its keys and records too. */
export const kindsOf = (all: boolean): readonly ArchiveKind[] => (all ? ARCHIVE_KINDS : ['pet', 'order']);

/** A failure to write the export, as opposed to one of reading the store. */
class OutputFailure extends Error {
  constructor(readonly fault: unknown) {
    super('the output failed');
  }
}

/** `write`, any failure of which is the output's. */
const toOutput = async (write: () => Promise<void>): Promise<void> => {
  try {
    await write();
  } catch (err) {
    throw new OutputFailure(err);
  }
};

/** Rejects with an OutputFailure once `stream` fails (a full disk, a reader that went away); listened to from now on. */
function failureOf(stream: Writable): Promise<never> {
  const failed = new Promise<never>((_, reject) => stream.once('error', (err) => reject(new OutputFailure(err))));
  failed.catch(() => undefined);
  return failed;
}

/** Writes the export of `snapshot` to `stream`; answers the records written. `failed` rejects the write under way. */
async function writeExport(
  snapshot: ArchiveSnapshot,
  kinds: readonly ArchiveKind[],
  stream: Writable,
  failed: Promise<never>,
  request: ExportRequest,
  io: DataIo,
): Promise<number> {
  const write = (text: string) => Promise.race([failed, toOutput(() => writeText(stream, text))]);
  const progress = startProgress({ label: 'export', total: await countOf(snapshot, kinds), quiet: request.quiet, stream: io.stderr });
  let rows = 0;
  try {
    // In the snapshot: every id exported was issued by then, or is larger and imported itself.
    await write(`${headerLine(await snapshot.petIdsIssued())}\n`);
    for await (const page of pagesOf(snapshot, kinds)) {
      await write(textOf(page));
      rows += page.length;
      progress.add(page.length);
    }
    return rows;
  } finally {
    progress.stop();
  }
}

/** Exports the store `env` configures; answers the exit code (0 done, 1 failed). */
export async function exportStore(request: ExportRequest, env: Readonly<Record<string, string | undefined>>, io: DataIo): Promise<number> {
  const config = configurationOrComplaint(env, 'invalid configuration', (text) => io.stderr.write(text));
  if (config === undefined) return 1;
  const { database } = config;
  if (isAbsentDatabase(database, 'PETSTORE_DB', (text) => io.stderr.write(text))) return 1;
  const target = request.out ?? 'standard output';
  const unwritable = request.out === undefined ? undefined : unwritableFile(request.out, database);
  if (unwritable !== undefined) {
    io.stderr.write(`petstore: cannot write the export to ${target}: ${unwritable}.\n`);
    return 1;
  }
  const partial = request.out === undefined ? undefined : `${request.out}.partial`;
  // Opened before the store, so that a file that cannot be written (no permission) is told at once.
  let fd: number | undefined;
  try {
    // A .partial left by another run is removed first: the mode applies to a file created, not to one reused.
    if (partial !== undefined) rmSync(partial, { force: true });
    // Readable by its owner alone, as the database is: with --all it holds key digests and idempotency records.
    if (partial !== undefined) fd = openSync(partial, 'wx', 0o600);
  } catch (err) {
    const { type, message } = describeFault(err);
    io.stderr.write(`petstore: cannot write the export to ${target}: ${type}: ${message}\n`);
    return 1;
  }
  const store = await openStoreOrComplain(config, database, (text) => io.stderr.write(text));
  if (store === undefined) {
    if (fd !== undefined) closeSync(fd);
    if (partial !== undefined) rmSync(partial, { force: true });
    return 1;
  }
  try {
    const stream = fd === undefined ? io.stdout : createWriteStream('', { fd });
    const failed = failureOf(stream);
    const rows = await store.archive.snapshot((snapshot) => writeExport(snapshot, kindsOf(request.all), stream, failed, request, io));
    if (partial !== undefined && request.out !== undefined) {
      await toOutput(async () => {
        stream.end();
        await finished(stream);
        renameSync(partial, request.out!);
      });
      if (!request.quiet) io.stderr.write(`petstore: exported ${rows} records to ${request.out}\n`);
    }
    return 0;
  } catch (err) {
    if (!(err instanceof OutputFailure)) {
      io.stderr.write(cannotUse(database, err));
      return 1;
    }
    const { type, message } = describeFault(err.fault);
    io.stderr.write(`petstore: could not write the export to ${target}: ${type}: ${message}\n`);
    return 1;
  } finally {
    if (partial !== undefined) rmSync(partial, { force: true });
    await store.close().catch(() => undefined);
  }
}
