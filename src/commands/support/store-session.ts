// What the data commands (backup, export, import, copy) share: a store opened through the
// composition root, its archive read page by page as lines, and the checksum of its content.
import { describeFault } from '../../domain/fault-description.js';
import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { pino } from 'pino';
import type { Config } from '../../config/config.js';
import { type DatabaseConfig, describeDatabase } from '../../config/database-config.js';
import { closeContainer, containerOptionsFrom, createContainer, TOKENS } from '../../composition/index.js';
import type { ArchiveSnapshot, ArchiveTable, ArchiveTableReader, StoreArchive, StoreBackup } from '../../domain/index.js';
import { type ArchiveKind, type ArchiveLine, lineOf } from '../../export-format/archive-format.js';

/** Records read or written per batch: a page of a keyset walk, one transaction of a write. */
export const BATCH_SIZE = 10_000;

/** A store, opened through its own container. */
export interface OpenStore {
  readonly archive: StoreArchive;
  readonly backup: StoreBackup;
  close(): Promise<void>;
}

/** Opens `database` as the server would (migrating it), with `config`'s other settings; rejects when it cannot. */
export async function openStore(config: Config, database: DatabaseConfig): Promise<OpenStore> {
  // Logs would mix with the output; failures are told by the command.
  const container = createContainer(containerOptionsFrom({ ...config, database }, pino({ level: 'silent' })));
  try {
    const archive = await container.getAsync<StoreArchive>(TOKENS.StoreArchive);
    const backup = await container.getAsync<StoreBackup>(TOKENS.StoreBackup);
    return { archive, backup, close: () => closeContainer(container) };
  } catch (err) {
    await closeContainer(container).catch(() => undefined);
    throw err;
  }
}

/** The store at `database`, or undefined once `complain` was told why it could not be opened. */
export async function openStoreOrComplain(
  config: Config,
  database: DatabaseConfig,
  complain: (text: string) => void,
): Promise<OpenStore | undefined> {
  try {
    return await openStore(config, database);
  } catch (err) {
    complain(cannotUse(database, err));
    return undefined;
  }
}

/** The backup of `database` alone: a storage that refuses to take one refuses without being opened. */
export async function openBackup(config: Config, database: DatabaseConfig): Promise<{ backup: StoreBackup; close(): Promise<void> }> {
  const container = createContainer(containerOptionsFrom({ ...config, database }, pino({ level: 'silent' })));
  try {
    return { backup: await container.getAsync<StoreBackup>(TOKENS.StoreBackup), close: () => closeContainer(container) };
  } catch (err) {
    await closeContainer(container).catch(() => undefined);
    throw err;
  }
}

/** The complaint of a command that could not use `database`: what, where (no password), why. */
export const cannotUse = (database: DatabaseConfig, err: unknown): string => {
  const { type, message } = describeFault(err);
  return `petstore: could not use the database ${describeDatabase(database)}: ${type}: ${message}\n`;
};

/** The table of each kind of line. */
const TABLE_OF_KIND = {
  category: 'categories',
  pet: 'pets',
  order: 'orders',
  apiKey: 'apiKeys',
  idempotencyRecord: 'idempotencyRecords',
} as const satisfies Record<ArchiveKind, keyof ArchiveSnapshot>;

/** The table of `kind` in `archive`, as lines of that kind. */
export const tableOf = (archive: StoreArchive, kind: ArchiveKind): ArchiveTable<ArchiveLine['record']> => archive[TABLE_OF_KIND[kind]];

/** Every record of `kinds` in `snapshot`, kind after kind, each in key order, a page at a time. */
export async function* pagesOf(snapshot: ArchiveSnapshot, kinds: readonly ArchiveKind[]): AsyncGenerator<readonly ArchiveLine[]> {
  for (const kind of kinds) {
    const table = snapshot[TABLE_OF_KIND[kind]] as ArchiveTableReader<ArchiveLine['record']>;
    let after: ArchiveLine['record'] | undefined;
    for (;;) {
      const page = await table.read(after, BATCH_SIZE);
      if (page.length > 0) yield page.map((record) => ({ kind, record }) as ArchiveLine);
      if (page.length < BATCH_SIZE) break;
      after = page[page.length - 1];
    }
  }
}

/** The lines of a page, each with its newline. */
export const textOf = (page: readonly ArchiveLine[]): string => page.map((line) => `${lineOf(line)}\n`).join('');

/** Writes `text`, waiting when the stream's buffer is full: memory stays flat however much is written. */
export async function writeText(stream: Writable, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}

/**
 * The SHA-256 of the content: the canonical lines of every record, as an export writes them
 * after its header (which is left out: the ids issued it records may be higher on the target).
 */
export class ContentDigest {
  private readonly hash = createHash('sha256');
  rows = 0;

  add(page: readonly ArchiveLine[], text = textOf(page)): void {
    this.hash.update(text);
    this.rows += page.length;
  }

  hex(): string {
    return this.hash.digest('hex');
  }
}

/** The total rows of `kinds` in `snapshot`. */
export async function countOf(snapshot: ArchiveSnapshot, kinds: readonly ArchiveKind[]): Promise<number> {
  let total = 0;
  for (const kind of kinds) total += await snapshot[TABLE_OF_KIND[kind]].count();
  return total;
}
