// The EventOutbox contract on every storage, each outbox with the repository that records into it.
import { MemoryEventOutbox } from '../../src/adapters/memory/memory-event-outbox.js';
import { MemoryPetRepository } from '../../src/adapters/memory/memory-pet-repository.js';
import { PostgresEventOutbox } from '../../src/adapters/postgres/postgres-event-outbox.js';
import { PostgresPetRepository } from '../../src/adapters/postgres/postgres-pet-repository.js';
import { SqliteEventOutbox } from '../../src/adapters/sqlite/sqlite-event-outbox.js';
import { SqlitePetRepository } from '../../src/adapters/sqlite/sqlite-pet-repository.js';
import type { EventOutbox, PetRepository } from '../../src/domain/index.js';
import { forEveryStorage } from '../support/every-storage.js';
import { eventOutboxContract } from './event-outbox.contract.js';

forEveryStorage<{ pets: PetRepository; outbox: EventOutbox }>(
  {
    memory: () => {
      const outbox = new MemoryEventOutbox();
      return { pets: new MemoryPetRepository(undefined, outbox), outbox };
    },
    sqlite: (db) => {
      const outbox = new SqliteEventOutbox(db);
      return { pets: new SqlitePetRepository(db, outbox), outbox };
    },
    postgres: (pool) => ({ pets: new PostgresPetRepository(pool, true), outbox: new PostgresEventOutbox(pool) }),
  },
  (name, open) =>
    eventOutboxContract(name, async () => {
      const { adapter, close } = await open();
      return { ...adapter, close };
    }),
);
