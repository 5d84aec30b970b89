// `petstore export [--out file] [--all]`: every pet of the store PETSTORE_DB names as NDJSON
// (archive-format.ts), in id order, read in keyset pages so memory stays flat; with --all, the
// stored API keys (digests) and idempotency records too.
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { isAbsentDatabase } from './absent-database.js';
import { configurationOrComplaint } from './configuration.js';
import type { DataIo, DataOptions } from './data-io.js';
import { ARCHIVE_KINDS, type ArchiveKind, headerLine } from './archive-format.js';
import { startProgress } from './progress.js';
import { cannotUse, countOf, type OpenStore, openStoreOrComplain, pagesOf, textOf, writeText } from './store-session.js';

export interface ExportRequest extends DataOptions {
  /** The file to write (replaced once complete); standard output when undefined. */
  readonly out: string | undefined;
  /** API keys and idempotency records too. */
  readonly all: boolean;
}

/** The kinds an export with or without --all holds. */
export const kindsOf = (all: boolean): readonly ArchiveKind[] => (all ? ARCHIVE_KINDS : ['pet']);

async function writeExport(
  store: OpenStore,
  kinds: readonly ArchiveKind[],
  stream: Writable,
  request: ExportRequest,
  io: DataIo,
): Promise<number> {
  const progress = startProgress({ label: 'export', total: await countOf(store.archive, kinds), quiet: request.quiet, stream: io.stderr });
  let rows = 0;
  try {
    // Read before the first pet: every id exported was issued by then, or is larger and imported itself.
    await writeText(stream, `${headerLine(await store.archive.petIdsIssued())}\n`);
    for await (const page of pagesOf(store.archive, kinds)) {
      await writeText(stream, textOf(page));
      rows += page.length;
      progress.add(page.length);
    }
  } finally {
    progress.stop();
  }
  return rows;
}

/** Exports the store `env` configures; answers the exit code (0 done, 1 failed). */
export async function exportStore(request: ExportRequest, env: Readonly<Record<string, string | undefined>>, io: DataIo): Promise<number> {
  const config = configurationOrComplaint(env, 'invalid configuration', (text) => io.stderr.write(text));
  if (config === undefined) return 1;
  const { database } = config;
  if (isAbsentDatabase(database, 'PETSTORE_DB', (text) => io.stderr.write(text))) return 1;
  const store = await openStoreOrComplain(config, database, (text) => io.stderr.write(text));
  if (store === undefined) return 1;
  const partial = request.out === undefined ? undefined : `${request.out}.partial`;
  try {
    const stream = partial === undefined ? io.stdout : createWriteStream(partial);
    const rows = await writeExport(store, kindsOf(request.all), stream, request, io);
    if (partial !== undefined && request.out !== undefined) {
      stream.end();
      await finished(stream);
      renameSync(partial, request.out);
      if (!request.quiet) io.stderr.write(`petstore: exported ${rows} records to ${request.out}\n`);
    }
    return 0;
  } catch (err) {
    io.stderr.write(cannotUse(database, err));
    return 1;
  } finally {
    if (partial !== undefined) rmSync(partial, { force: true });
    await store.close().catch(() => undefined);
  }
}
