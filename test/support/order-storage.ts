// The adapters of the ports that orders involve, on each storage: the orders, the pets they
// reserve, the pets' inventory and the outbox every change records into.
import { MemoryEventOutbox } from '../../src/adapters/memory/memory-event-outbox.js';
import { MemoryOrderRepository } from '../../src/adapters/memory/memory-order-repository.js';
import { MemoryPetRepository } from '../../src/adapters/memory/memory-pet-repository.js';
import { PostgresEventOutbox } from '../../src/adapters/postgres/postgres-event-outbox.js';
import { PostgresOrderRepository } from '../../src/adapters/postgres/postgres-order-repository.js';
import { PostgresPetInventory } from '../../src/adapters/postgres/postgres-pet-inventory.js';
import { PostgresPetRepository } from '../../src/adapters/postgres/postgres-pet-repository.js';
import { SqliteEventOutbox } from '../../src/adapters/sqlite/sqlite-event-outbox.js';
import { SqliteOrderRepository } from '../../src/adapters/sqlite/sqlite-order-repository.js';
import { SqlitePetInventory } from '../../src/adapters/sqlite/sqlite-pet-inventory.js';
import { SqlitePetRepository } from '../../src/adapters/sqlite/sqlite-pet-repository.js';
import type { OrderStorage } from '../contract/order-repository.contract.js';
import type { StorageAdapters } from './every-storage.js';

export const ORDER_STORAGE: StorageAdapters<OrderStorage> = {
  memory: () => {
    const outbox = new MemoryEventOutbox();
    const pets = new MemoryPetRepository(undefined, outbox);
    return { pets, inventory: pets, outbox, orders: new MemoryOrderRepository(pets, outbox) };
  },
  sqlite: (db) => {
    const outbox = new SqliteEventOutbox(db);
    return {
      pets: new SqlitePetRepository(db, outbox),
      inventory: new SqlitePetInventory(db),
      outbox,
      orders: new SqliteOrderRepository(db, outbox),
    };
  },
  postgres: (pool) => ({
    pets: new PostgresPetRepository(pool, true),
    inventory: new PostgresPetInventory(pool),
    outbox: new PostgresEventOutbox(pool),
    orders: new PostgresOrderRepository(pool, true),
  }),
};
