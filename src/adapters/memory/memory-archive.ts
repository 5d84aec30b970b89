// The reference behaviour of StoreArchive and StoreBackup (see test/contract/store-archive.contract.ts),
// over the memory adapters of the same container. A batch is checked whole before any of it is
// stored, which is the memory adapter's transaction. Memory keeps nothing to back up: refused.
import type * as domain from '../../domain/index.js';
import { categoryNameKey } from '../../domain/index.js';
import { highestPetId, sameContent } from '../shared/archive-record.js';
import type { MemoryApiKeyStore } from './memory-api-key-store.js';
import type { MemoryCategoryRepository } from './memory-category-repository.js';
import type { MemoryIdempotencyStore } from './memory-idempotency-store.js';
import type { MemoryOrderRepository } from './memory-order-repository.js';
import type { MemoryPetRepository } from './memory-pet-repository.js';

/** Code point order (UTF-8 byte order), as SQLite's BINARY and PostgreSQL's "C" collation compare. */
const byCodePoint = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

// Functions, not methods: archiveTable hands them on on their own.
interface MemoryTable<R> {
  /** Every record, in key order. */
  readonly all: () => readonly R[];
  /** Whether two records have the same key (and so cannot both be stored). */
  readonly sameKey: (a: R, b: R) => boolean;
  readonly compare: (a: R, b: R) => number;
  readonly store: (record: R) => void;
  /** Called with every record of a write that is not refused, once they are stored. */
  readonly written?: (records: readonly R[]) => void;
}

/** The reads of `all`'s records, in `compare`'s order. */
function tableReader<R>(all: () => readonly R[], compare: (a: R, b: R) => number): domain.ArchiveTableReader<R> {
  return {
    read: async (after, limit) => {
      const records = all();
      const start = after === undefined ? 0 : records.findIndex((record) => compare(record, after) > 0);
      return start === -1 ? [] : records.slice(start, start + limit);
    },
    count: async () => all().length,
  };
}

/** A table of the archive, which can also keep its records as they are now. */
type MemoryArchiveTable<R> = domain.ArchiveTable<R> & {
  /** The records as they are now, read later. */
  frozen(): domain.ArchiveTableReader<R>;
};

function archiveTable<R>(table: MemoryTable<R>): MemoryArchiveTable<R> {
  return {
    ...tableReader(table.all, table.compare),
    write: async (records): Promise<domain.ArchiveWrite<R>> => {
      const all = table.all();
      const storedAs = (record: R) => all.find((stored) => table.sameKey(stored, record));
      const conflicting = records.filter((record) => {
        const stored = storedAs(record);
        return stored !== undefined && !sameContent(stored, record);
      });
      if (conflicting.length > 0) return { kind: 'conflict', conflicting };
      const fresh = records.filter((record) => storedAs(record) === undefined);
      for (const record of fresh) table.store(record);
      table.written?.(records);
      return { kind: 'written', written: fresh.length };
    },
    frozen: () => {
      const records = table.all();
      return tableReader(() => records, table.compare);
    },
  };
}

/** Every record of the memory adapters of one container. */
export class MemoryStoreArchive implements domain.StoreArchive {
  readonly categories: MemoryArchiveTable<domain.ArchivedCategory>;
  readonly pets: MemoryArchiveTable<domain.ArchivedPet>;
  readonly orders: MemoryArchiveTable<domain.ArchivedOrder>;
  readonly apiKeys: MemoryArchiveTable<domain.ArchivedApiKey>;
  readonly idempotencyRecords: MemoryArchiveTable<domain.ArchivedIdempotencyRecord>;

  constructor(
    private readonly petRepository: MemoryPetRepository,
    apiKeys: MemoryApiKeyStore,
    records: MemoryIdempotencyStore,
    orders: MemoryOrderRepository,
    categories: MemoryCategoryRepository,
  ) {
    // A name is unique too, compared by its key: a category stored under another id with the same name is a conflict.
    this.categories = archiveTable<domain.ArchivedCategory>({
      all: () => categories.archived(),
      sameKey: (a, b) => a.id === b.id || categoryNameKey(a.name) === categoryNameKey(b.name),
      compare: (a, b) => a.id - b.id,
      store: (category) => categories.restore(category),
    });
    this.pets = archiveTable<domain.ArchivedPet>({
      all: () => petRepository.archived(),
      sameKey: (a, b) => a.id === b.id,
      compare: (a, b) => a.id - b.id,
      store: ({ version, ...pet }) => void petRepository.restore(pet, version),
    });
    this.orders = archiveTable<domain.ArchivedOrder>({
      all: () => orders.archived(),
      sameKey: (a, b) => a.id === b.id,
      compare: (a, b) => a.id - b.id,
      store: (order) => orders.restore(order),
    });
    // A digest is unique too: a key stored under another id with the same digest is a conflict.
    this.apiKeys = archiveTable<domain.ArchivedApiKey>({
      all: () => apiKeys.stored().map(({ record: { lastUsedAt: _lastUsedAt, ...record }, digest }) => ({ ...record, digest })),
      sameKey: (a, b) => a.id === b.id || a.digest === b.digest,
      compare: (a, b) => a.id - b.id,
      store: ({ digest, ...record }) => void apiKeys.restore({ record: { ...record, lastUsedAt: null }, digest }),
    });
    const compareRecords = (a: domain.ArchivedIdempotencyRecord, b: domain.ArchivedIdempotencyRecord) =>
      byCodePoint(a.scope, b.scope) || byCodePoint(a.key, b.key);
    this.idempotencyRecords = archiveTable<domain.ArchivedIdempotencyRecord>({
      all: () => records.archived().sort(compareRecords),
      sameKey: (a, b) => compareRecords(a, b) === 0,
      compare: compareRecords,
      store: (record) => void records.restore(record),
      written: (written) => petRepository.continueAfter(highestPetId(written)),
    });
  }

  async petIdsIssued(): Promise<number> {
    return this.petRepository.idsIssued();
  }

  // Copies of the records, taken together: no write runs between them (memory writes are synchronous).
  async snapshot<T>(read: (snapshot: domain.ArchiveSnapshot) => Promise<T>): Promise<T> {
    const petIdsIssued = this.petRepository.idsIssued();
    const snapshot: domain.ArchiveSnapshot = {
      categories: this.categories.frozen(),
      pets: this.pets.frozen(),
      orders: this.orders.frozen(),
      apiKeys: this.apiKeys.frozen(),
      idempotencyRecords: this.idempotencyRecords.frozen(),
      petIdsIssued: async () => petIdsIssued,
    };
    return read(snapshot);
  }

  // Restoring already moved each next id past the largest one stored.
  async continueSequences(petIdsIssued = 0): Promise<void> {
    this.petRepository.continueAfter(petIdsIssued);
  }
}

/** Memory keeps nothing after exit, so there is nothing to back up. */
export const memoryStoreBackup: domain.StoreBackup = {
  backup: async (): Promise<domain.BackupOutcome> => ({ kind: 'unsupported', tool: undefined }),
};
