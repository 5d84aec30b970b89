// The adapters of the two ports that share a storage, on each storage: the pets, and the
// idempotency records their repository completes (PetRepository.createCompleting).
import { MemoryIdempotencyStore } from '../../src/adapters/memory/memory-idempotency-store.js';
import { MemoryPetRepository } from '../../src/adapters/memory/memory-pet-repository.js';
import { PostgresIdempotencyStore } from '../../src/adapters/postgres/postgres-idempotency-store.js';
import { PostgresPetRepository } from '../../src/adapters/postgres/postgres-pet-repository.js';
import { SqliteIdempotencyStore } from '../../src/adapters/sqlite/sqlite-idempotency-store.js';
import { SqlitePetRepository } from '../../src/adapters/sqlite/sqlite-pet-repository.js';
import type { IdempotencyStore, PetRepository } from '../../src/domain/index.js';
import type { StorageAdapters } from './every-storage.js';

export interface PetStorage {
  readonly repository: PetRepository;
  readonly store: IdempotencyStore;
}

export const PET_STORAGE: StorageAdapters<PetStorage> = {
  memory: () => {
    const store = new MemoryIdempotencyStore();
    return { store, repository: new MemoryPetRepository(store) };
  },
  sqlite: (db) => ({ store: new SqliteIdempotencyStore(db), repository: new SqlitePetRepository(db) }),
  postgres: (pool) => ({ store: new PostgresIdempotencyStore(pool), repository: new PostgresPetRepository(pool) }),
};
