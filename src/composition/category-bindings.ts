// The categories (interface 1.3): their repository, in the database of the pets, and their use cases.
import type Database from 'better-sqlite3';
import type { Container } from 'inversify';
import type { Pool } from 'pg';
import { MemoryCategoryRepository } from '../adapters/memory/memory-category-repository.js';
import { MemoryEventOutbox } from '../adapters/memory/memory-event-outbox.js';
import { MemoryPetRepository } from '../adapters/memory/memory-pet-repository.js';
import { PostgresCategoryRepository } from '../adapters/postgres/postgres-category-repository.js';
import { SqliteCategoryRepository } from '../adapters/sqlite/sqlite-category-repository.js';
import { SqliteEventOutbox } from '../adapters/sqlite/sqlite-event-outbox.js';
import type { CategoryUseCases } from '../adapters/http/handlers/category-handlers.js';
import type { Tracing } from '../adapters/shared/tracing.js';
import {
  type CategoryRepository,
  createCategory,
  deleteCategory,
  type EventOutbox,
  getCategory,
  listCategories,
  type PetRepository,
  renameCategory,
} from '../domain/index.js';
import { type ContainerOptions, EVENTS_OPTION_DEFAULTS } from './container-options.js';
import { TOKENS } from './tokens.js';
import { tracedUseCase } from './tracing-bindings.js';

/** Binds CategoryRepository, chosen by the database as the pets' is, and CategoryUseCases over it. */
export function bindCategories(container: Container, { database, events = {} }: ContainerOptions): void {
  const recordEvents = events.enabled ?? EVENTS_OPTION_DEFAULTS.enabled;
  const bind = () => container.bind<CategoryRepository>(TOKENS.CategoryRepository);
  switch (database.kind) {
    case 'sqlite':
      bind().toResolvedValue(
        (db: Database.Database, outbox: EventOutbox) =>
          new SqliteCategoryRepository(db, recordEvents && outbox instanceof SqliteEventOutbox ? outbox : undefined),
        [TOKENS.SqliteDatabase, TOKENS.EventOutbox],
      );
      break;
    case 'postgres':
      bind().toResolvedValue(
        (pool: Pool, tracing: Tracing | undefined) => new PostgresCategoryRepository(pool, recordEvents, tracing?.current),
        [TOKENS.PostgresPool, TOKENS.Tracing],
      );
      break;
    case 'memory':
      // The pets of a PetRepository of the caller's own are out of its sight: it sees none.
      bind().toResolvedValue(
        (pets: PetRepository, outbox: EventOutbox) =>
          new MemoryCategoryRepository(
            pets instanceof MemoryPetRepository ? pets : { categoryIdsUsed: () => [] },
            recordEvents && outbox instanceof MemoryEventOutbox ? outbox : undefined,
          ),
        [TOKENS.PetRepository, TOKENS.EventOutbox],
      );
      break;
  }
  // Each in a span of its own when tracing is on, as the pets' use cases.
  container.bind<CategoryUseCases>(TOKENS.CategoryUseCases).toResolvedValue(
    (tracing: Tracing | undefined, categories: CategoryRepository) => ({
      listCategories: tracedUseCase(tracing, 'listCategories', listCategories(categories)),
      createCategory: tracedUseCase(tracing, 'createCategory', createCategory(categories)),
      getCategory: tracedUseCase(tracing, 'getCategory', getCategory(categories)),
      renameCategory: tracedUseCase(tracing, 'renameCategory', renameCategory(categories)),
      deleteCategory: tracedUseCase(tracing, 'deleteCategory', deleteCategory(categories)),
    }),
    [TOKENS.Tracing, TOKENS.CategoryRepository],
  );
}
