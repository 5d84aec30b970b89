// The adapters of the categories on each storage, with the pets they read and the outbox they record into.
import { MemoryCategoryRepository } from '../../src/adapters/memory/memory-category-repository.js';
import { MemoryEventOutbox } from '../../src/adapters/memory/memory-event-outbox.js';
import { MemoryPetRepository } from '../../src/adapters/memory/memory-pet-repository.js';
import { PostgresCategoryRepository } from '../../src/adapters/postgres/postgres-category-repository.js';
import { PostgresEventOutbox } from '../../src/adapters/postgres/postgres-event-outbox.js';
import { PostgresPetRepository } from '../../src/adapters/postgres/postgres-pet-repository.js';
import { SqliteCategoryRepository } from '../../src/adapters/sqlite/sqlite-category-repository.js';
import { SqliteEventOutbox } from '../../src/adapters/sqlite/sqlite-event-outbox.js';
import { SqlitePetRepository } from '../../src/adapters/sqlite/sqlite-pet-repository.js';
import type { CategoryRepository, EventOutbox, PetRepository } from '../../src/domain/index.js';
import type { StorageAdapters } from './every-storage.js';

export interface CategoryStorage {
  readonly categories: CategoryRepository;
  readonly pets: PetRepository;
  readonly outbox: EventOutbox;
  /** The PostgreSQL pool, for the race tests that hold a transaction of their own. */
  readonly pool?: import('pg').Pool;
}

export const CATEGORY_STORAGE: StorageAdapters<CategoryStorage> = {
  memory: () => {
    const outbox = new MemoryEventOutbox();
    const pets = new MemoryPetRepository(undefined, outbox);
    return { outbox, pets, categories: new MemoryCategoryRepository(pets, outbox) };
  },
  sqlite: (db) => {
    const outbox = new SqliteEventOutbox(db);
    return { outbox, pets: new SqlitePetRepository(db, outbox), categories: new SqliteCategoryRepository(db, outbox) };
  },
  postgres: (pool) => ({
    pool,
    outbox: new PostgresEventOutbox(pool),
    pets: new PostgresPetRepository(pool, true),
    categories: new PostgresCategoryRepository(pool, true),
  }),
};
