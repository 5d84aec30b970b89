// `petstore import <file>`: reads an export (archive-format.ts) into the store PETSTORE_DB
// names, keeping ids and versions, and continuing the sequence after the ids the source had
// issued (so that ids it deleted are not given again). Nothing goes through the repository: a
// restore records no change event. The whole file is checked first, line by line with the
// domain's codecs, so a bad line stops the import before anything is written. Then it is
// written in batches, each one transaction that adds what is missing and leaves what is stored, identical, as it
// is: running the same import twice changes nothing the second time, and an interrupted
// import run again completes without duplicates. A record whose key is stored with other
// content is a conflict: its batch is not written, and the import stops, naming its line.
import * as E from 'fp-ts/lib/Either.js';
import { configurationOrComplaint } from './support/configuration.js';
import type { DataIo, DataOptions } from './support/data-io.js';
import {
  ARCHIVE_KINDS,
  type ArchiveHeader,
  type ArchiveKind,
  type ArchiveLine,
  decodeLine,
  lineOf,
  readHeader,
} from '../export-format/archive-format.js';
import { isLineTooLong, linesOf, MAX_LINE_CHARACTERS, NotUtf8 } from './support/archive-lines.js';
import { startProgress } from './support/progress.js';
import { BATCH_SIZE, cannotUse, type OpenStore, openStoreOrComplain, tableOf } from './support/store-session.js';
import { describeDatabase, isInProcessMemory } from '../config/database-config.js';

export interface ImportRequest extends DataOptions {
  readonly file: string;
}

/** Why a file cannot be imported: the exit code and the sentence. */
class Refusal extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** A decoded line of the file, with its number. */
interface NumberedLine {
  readonly number: number;
  readonly line: ArchiveLine;
}

/**
 * Lines decoded between two yields: an async generator costs a promise and a turn of the
 * microtask queue per yield, as much again as reading the line, so lines are handed on in groups.
 */
const LINES_PER_YIELD = 1_000;

/** Why reading `file` failed after its line `number`, as a Refusal. */
function readFailure(file: string, number: number, err: unknown): Refusal {
  if (err instanceof NotUtf8) return new Refusal(1, `${file} line ${err.line}: not valid UTF-8. Nothing was imported.`);
  if (isLineTooLong(err))
    return new Refusal(1, `${file} line ${number + 1}: longer than ${MAX_LINE_CHARACTERS} characters, not a record. Nothing was imported.`);
  return new Refusal(2, `${file} cannot be read: ${err instanceof Error ? err.message : String(err)}`);
}

/**
 * Every line of the file after its header, decoded as of the version the header names, with
 * its number, in groups of at most LINES_PER_YIELD; `header` hears the header first. A
 * Refusal at the first line that is not a record.
 */
async function* recordsOf(
  file: string,
  header: (header: ArchiveHeader) => void = () => undefined,
): AsyncGenerator<readonly NumberedLine[]> {
  let number = 0;
  let version = 0;
  let group: NumberedLine[] = [];
  try {
    for await (const text of linesOf(file)) {
      number += 1;
      if (number === 1) {
        const read = readHeader(text);
        if (E.isLeft(read)) throw new Refusal(2, `${file} cannot be imported: ${read.left}`);
        version = read.right.version;
        header(read.right);
        continue;
      }
      const decoded = decodeLine(text, version);
      if (E.isLeft(decoded)) throw new Refusal(1, `${file} line ${number}: ${decoded.left}. Nothing was imported.`);
      group.push({ number, line: decoded.right });
      if (group.length >= LINES_PER_YIELD) {
        yield group;
        group = [];
      }
    }
  } catch (err) {
    throw err instanceof Refusal ? err : readFailure(file, number, err);
  }
  if (number === 0) throw new Refusal(2, `${file} cannot be imported: it is empty, not a petstore export`);
  if (group.length > 0) yield group;
}

interface Batch {
  readonly lines: ArchiveLine[];
  readonly numbers: number[];
}

/** Writes one batch of one kind; a Refusal naming the lines of its conflicting records. */
async function writeBatch(store: OpenStore, kind: ArchiveKind, batch: Batch, file: string): Promise<number> {
  const records = batch.lines.map((line) => line.record);
  const outcome = await tableOf(store.archive, kind).write(records);
  if (outcome.kind === 'written') return outcome.written;
  const named = outcome.conflicting.slice(0, 5).map((record) => {
    const number = batch.numbers[records.indexOf(record)];
    return `  line ${number}: ${lineOf({ kind, record } as ArchiveLine)}\n`;
  });
  throw new Refusal(
    1,
    `${file}: ${outcome.conflicting.length} record(s) have the key of a record stored before them with other content ` +
      `(stored in the database already, or by an earlier line of this file), and are not imported:\n${named.join('')}` +
      'The batches before them are imported, as they are in the file; resolve the conflict and run the same import again.',
  );
}

async function importInto(store: OpenStore, request: ImportRequest, total: number, io: DataIo): Promise<{ read: number; written: number }> {
  const progress = startProgress({ label: 'import', total, quiet: request.quiet, stream: io.stderr });
  const batches = new Map<ArchiveKind, Batch>(ARCHIVE_KINDS.map((kind) => [kind, { lines: [], numbers: [] }]));
  let written = 0;
  let petIdsIssued: number | undefined;
  const flush = async (kind: ArchiveKind) => {
    const batch = batches.get(kind)!;
    if (batch.lines.length === 0) return;
    written += await writeBatch(store, kind, batch, request.file);
    // After every batch, not once at the end: a store left by an interrupted import gives new ids past what it holds.
    await store.archive.continueSequences(petIdsIssued);
    progress.add(batch.lines.length);
    batches.set(kind, { lines: [], numbers: [] });
  };
  try {
    for await (const group of recordsOf(request.file, (header) => (petIdsIssued = header.petIdsIssued))) {
      for (const { number, line } of group) {
        const batch = batches.get(line.kind)!;
        batch.lines.push(line);
        batch.numbers.push(number);
        if (batch.lines.length >= BATCH_SIZE) await flush(line.kind);
      }
    }
    for (const kind of ARCHIVE_KINDS) await flush(kind);
    await store.archive.continueSequences(petIdsIssued);
  } finally {
    progress.stop();
  }
  return { read: total, written };
}

/** Imports `request.file` into the store `env` configures; answers the exit code (0 done, 1 bad line or conflict or failure, 2 not an export). */
export async function importStore(request: ImportRequest, env: Readonly<Record<string, string | undefined>>, io: DataIo): Promise<number> {
  const config = configurationOrComplaint(env, 'invalid configuration', (text) => io.stderr.write(text));
  if (config === undefined) return 1;
  const { database } = config;
  if (isInProcessMemory(database)) {
    io.stderr.write(
      `petstore: PETSTORE_DB is ${describeDatabase(database)}, so what is imported there would be gone when this command ends.\n`,
    );
    return 2;
  }
  let total = 0;
  try {
    // The first pass: every line checked before anything is written.
    for await (const group of recordsOf(request.file)) total += group.length;
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    io.stderr.write(`petstore: ${err.message}\n`);
    return err.code;
  }
  const store = await openStoreOrComplain(config, database, (text) => io.stderr.write(text));
  if (store === undefined) return 1;
  try {
    const { read, written } = await importInto(store, request, total, io);
    io.stdout.write(
      `Imported ${read} records from ${request.file} into ${describeDatabase(database)}: ${written} new, ${read - written} stored already.\n`,
    );
    return 0;
  } catch (err) {
    io.stderr.write(err instanceof Refusal ? `petstore: ${err.message}\n` : cannotUse(database, err));
    return 1;
  } finally {
    await store.close().catch(() => undefined);
  }
}
