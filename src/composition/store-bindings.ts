// The store (interface 1.3): the orders and inventory adapters of the storage, beside its pets,
// and the use cases over them. An order changes its pet in its own transaction, so the store is
// served only over the storage's own PetRepository: with a caller's own (ContainerOptions.adapters),
// StoreUseCases is undefined, the store's operations are not served, and pets are not held by orders.
import type Database from 'better-sqlite3';
import type { Container } from 'inversify';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { MemoryEventOutbox } from '../adapters/memory/memory-event-outbox.js';
import { MemoryOrderRepository } from '../adapters/memory/memory-order-repository.js';
import { MemoryPetRepository } from '../adapters/memory/memory-pet-repository.js';
import { PostgresOrderRepository } from '../adapters/postgres/postgres-order-repository.js';
import { PostgresPetInventory } from '../adapters/postgres/postgres-pet-inventory.js';
import { SqliteEventOutbox } from '../adapters/sqlite/sqlite-event-outbox.js';
import { SqliteOrderRepository } from '../adapters/sqlite/sqlite-order-repository.js';
import { SqlitePetInventory } from '../adapters/sqlite/sqlite-pet-inventory.js';
import type { StoreUseCases } from '../adapters/http/handlers/order-handlers.js';
import type { Tracing } from '../adapters/shared/tracing.js';
import {
  changeOrder,
  type Clock,
  type EventOutbox,
  getInventory,
  getOrder,
  listOrders,
  type OrderRepository,
  type PetInventory,
  type PetRepository,
  placeOrder,
} from '../domain/index.js';
import { type ContainerOptions, EVENTS_OPTION_DEFAULTS } from './container-options.js';
import { TOKENS } from './tokens.js';
import { tracedUseCase } from './tracing-bindings.js';

/** Binds OrderRepository and PetInventory of the configured storage, and StoreUseCases over them (undefined over a caller's own PetRepository). */
export function bindStore(container: Container, { database, adapters = {}, events = {} }: ContainerOptions): void {
  const recordEvents = events.enabled ?? EVENTS_OPTION_DEFAULTS.enabled;
  switch (database.kind) {
    case 'sqlite':
      container
        .bind<OrderRepository>(TOKENS.OrderRepository)
        .toResolvedValue(
          (db: Database.Database, outbox: EventOutbox) =>
            new SqliteOrderRepository(db, recordEvents && outbox instanceof SqliteEventOutbox ? outbox : undefined),
          [TOKENS.SqliteDatabase, TOKENS.EventOutbox],
        );
      container
        .bind<PetInventory>(TOKENS.PetInventory)
        .toResolvedValue((db: Database.Database) => new SqlitePetInventory(db), [TOKENS.SqliteDatabase]);
      break;
    case 'postgres':
      container
        .bind<OrderRepository>(TOKENS.OrderRepository)
        .toResolvedValue(
          (pool: Pool, tracing: Tracing | undefined) => new PostgresOrderRepository(pool, recordEvents, tracing?.current),
          [TOKENS.PostgresPool, TOKENS.Tracing],
        );
      container
        .bind<PetInventory>(TOKENS.PetInventory)
        .toResolvedValue((pool: Pool) => new PostgresPetInventory(pool), [TOKENS.PostgresPool]);
      break;
    case 'memory':
      container.bind<OrderRepository>(TOKENS.OrderRepository).toResolvedValue(
        (pets: PetRepository, outbox: EventOutbox) => {
          if (!(pets instanceof MemoryPetRepository)) throw new Error('the orders of memory storage need its own MemoryPetRepository');
          return new MemoryOrderRepository(pets, recordEvents && outbox instanceof MemoryEventOutbox ? outbox : undefined);
        },
        [TOKENS.PetRepository, TOKENS.EventOutbox],
      );
      container
        .bind<PetInventory>(TOKENS.PetInventory)
        .toResolvedValue((pets: PetRepository) => pets as MemoryPetRepository, [TOKENS.PetRepository]);
      break;
  }
  // Over the storage's own pets only (a memory repository replaced by a test's double included).
  const isServed = async (): Promise<boolean> =>
    adapters.petRepository === undefined &&
    (database.kind !== 'memory' || (await container.getAsync<PetRepository>(TOKENS.PetRepository)) instanceof MemoryPetRepository);
  container.bind<StoreUseCases | undefined>(TOKENS.StoreUseCases).toResolvedValue(
    async (clock: Clock, logger: Logger, tracing: Tracing | undefined) => {
      if (!(await isServed())) {
        logger.warn(
          "the store (orders, inventory) is not served: a PetRepository of the caller replaces the storage's, and an order changes its pet in the storage's own transaction",
        );
        return undefined;
      }
      const [orders, pets, inventory] = await Promise.all([
        container.getAsync<OrderRepository>(TOKENS.OrderRepository),
        container.getAsync<PetRepository>(TOKENS.PetRepository),
        container.getAsync<PetInventory>(TOKENS.PetInventory),
      ]);
      // Each in a span of its own when tracing is on.
      return {
        placeOrder: tracedUseCase(tracing, 'placeOrder', placeOrder(orders, pets, clock)),
        getOrder: tracedUseCase(tracing, 'getOrder', getOrder(orders)),
        listOrders: tracedUseCase(tracing, 'listOrders', listOrders(orders)),
        changeOrder: tracedUseCase(tracing, 'changeOrder', changeOrder(orders, clock)),
        getInventory: tracedUseCase(tracing, 'getInventory', getInventory(inventory)),
      };
    },
    [TOKENS.Clock, TOKENS.Logger, TOKENS.Tracing],
  );
  /** What the pets' changes ask of the orders: none when the store is not served. */
  container
    .bind<OrderRepository | undefined>(TOKENS.OpenOrders)
    .toResolvedValue(async () => ((await isServed()) ? container.getAsync<OrderRepository>(TOKENS.OrderRepository) : undefined));
}
