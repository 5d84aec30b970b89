// The operator's view of a store: every stored record read in key order, and written back as
// it was, for export, import and copy between storages; and the online backup, which only a
// storage that is one file can take. Not on any request's path.
import type { ApiKeyRecord } from '../api-key.js';
import type { Category, CategoryVersion } from '../category.js';
import type { OrderId, OrderNote, OrderStatus, OrderVersion } from '../order.js';
import type { Pet, PetId } from '../pet.js';
import type { PetVersion } from '../pet-changes.js';

/** A stored pet with its version, as it travels: restored at that version, its ETag is the same. */
export interface ArchivedPet extends Pet {
  readonly version: PetVersion;
}

/** A stored category with its version, restored at that version (its ETag is the same). */
export interface ArchivedCategory extends Category {
  readonly version: CategoryVersion;
}

/**
 * A stored order with its version, as it travels (since interface 1.3). Not the idempotency
 * key it was placed with: that is remembered a day at most, for the retries of one store.
 */
export interface ArchivedOrder {
  readonly id: OrderId;
  readonly petId: PetId;
  readonly status: OrderStatus;
  /** The buyer's note; null without one. */
  readonly note: OrderNote | null;
  readonly placedAt: Date;
  readonly updatedAt: Date;
  readonly version: OrderVersion;
}

/**
 * A stored API key with the digest it is kept as (never the key), and without its last use:
 * that tells how the key is used on one store, and would change between two runs of an
 * interrupted import or copy, making the second a conflict. A restored key is not used yet.
 */
export interface ArchivedApiKey extends Omit<ApiKeyRecord, 'lastUsedAt'> {
  /** The SHA-256 of the key, lower-case hex. */
  readonly digest: string;
}

/** An idempotency record as stored: what a retry of its key would find. */
export interface ArchivedIdempotencyRecord {
  readonly scope: string;
  readonly key: string;
  readonly token: string;
  readonly fingerprint: string;
  /** The created pet once the request completed; null while it is in progress. */
  readonly pet: Pet | null;
  readonly expiresAt: Date;
  readonly leaseExpiresAt: Date;
}

/** What a write of a batch did: how many records it added, or the records it refused. */
export type ArchiveWrite<R> =
  /** Every record is now stored: `written` were added, the others were stored already, identical. */
  | { readonly kind: 'written'; readonly written: number }
  /** Some records' keys are stored with other content: nothing of the batch was written. */
  | { readonly kind: 'conflict'; readonly conflicting: readonly R[] };

/** The records of one kind as they are read: in ascending key order (id; scope then key, by code point). */
export interface ArchiveTableReader<R> {
  /** At most `limit` records whose key comes after that of `after` (from the first when undefined). */
  read(after: R | undefined, limit: number): Promise<readonly R[]>;
  count(): Promise<number>;
}

/** The records of one kind, read and written. */
export interface ArchiveTable<R> extends ArchiveTableReader<R> {
  /**
   * Stores `records` with their own keys, in one transaction: a record whose key is stored
   * with the same content is left as it is, so writing a batch twice changes nothing. A
   * restore, not a change: it records no change event.
   */
  write(records: readonly R[]): Promise<ArchiveWrite<R>>;
}

/** Every record of a store, kind by kind, as export and copy read them. */
export interface ArchiveSnapshot {
  readonly categories: ArchiveTableReader<ArchivedCategory>;
  readonly pets: ArchiveTableReader<ArchivedPet>;
  readonly orders: ArchiveTableReader<ArchivedOrder>;
  readonly apiKeys: ArchiveTableReader<ArchivedApiKey>;
  readonly idempotencyRecords: ArchiveTableReader<ArchivedIdempotencyRecord>;
  /**
   * The largest pet id issued so far (0 when none was): at least every stored id, and above
   * them when the highest pets were deleted, since an id is never issued twice.
   */
  petIdsIssued(): Promise<number>;
}

/** Every record of a store, kind by kind, as export, import and copy read and write them. */
export interface StoreArchive extends ArchiveSnapshot {
  /** A category whose name (compared as categoryNameKey) another stored category holds is a conflict. */
  readonly categories: ArchiveTable<ArchivedCategory>;
  readonly pets: ArchiveTable<ArchivedPet>;
  /** Orders with their own ids, as they were: a restore moves no pet (the pets' lines carry their statuses). */
  readonly orders: ArchiveTable<ArchivedOrder>;
  readonly apiKeys: ArchiveTable<ArchivedApiKey>;
  /**
   * A write that is not refused also makes the next pet created get an id above that of every
   * record's pet (stored already or not), in the same transaction: the pet a retry is answered
   * with stays its own, even when it was deleted and is in no pet line.
   */
  readonly idempotencyRecords: ArchiveTable<ArchivedIdempotencyRecord>;
  /**
   * Runs `read` on the store as it stood at one moment, while it keeps serving: every read
   * through the snapshot sees the same committed records, none of what is written meanwhile,
   * so a pet and the idempotency record that names it are read both or neither.
   */
  snapshot<T>(read: (snapshot: ArchiveSnapshot) => Promise<T>): Promise<T>;
  /**
   * Makes the next category, pet, order and API key created get ids above every stored one, and the
   * next pet one above `petIdsIssued` too (the source's, so that ids it deleted are not given
   * again). Never lowers them.
   */
  continueSequences(petIdsIssued?: number): Promise<void>;
}

/** What became of a backup: taken (with the pages copied), or refused because this storage cannot take one. */
export type BackupOutcome =
  | { readonly kind: 'taken'; readonly pages: number }
  /** The storage is not one file: its own tool takes the backup (`pg_dump`), or there is none (memory). */
  | { readonly kind: 'unsupported'; readonly tool: string | undefined };

/** Takes a consistent copy of the whole store while it keeps serving. */
export interface StoreBackup {
  /** Writes the copy to `file` (replacing it); `progress` hears pages copied of the total. */
  backup(file: string, progress?: (done: number, total: number) => void): Promise<BackupOutcome>;
}
