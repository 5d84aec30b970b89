// The StoreArchive contract, run against every adapter of the port, each with the repository and key store of its storage.
import { MemoryApiKeyStore } from '../../src/adapters/memory/memory-api-key-store.js';
import { MemoryStoreArchive } from '../../src/adapters/memory/memory-archive.js';
import { MemoryIdempotencyStore } from '../../src/adapters/memory/memory-idempotency-store.js';
import { MemoryPetRepository } from '../../src/adapters/memory/memory-pet-repository.js';
import { PostgresApiKeyStore } from '../../src/adapters/postgres/postgres-api-key-store.js';
import { PostgresStoreArchive } from '../../src/adapters/postgres/postgres-archive.js';
import { PostgresPetRepository } from '../../src/adapters/postgres/postgres-pet-repository.js';
import { SqliteApiKeyStore } from '../../src/adapters/sqlite/sqlite-api-key-store.js';
import { SqliteStoreArchive } from '../../src/adapters/sqlite/sqlite-archive.js';
import { SqlitePetRepository } from '../../src/adapters/sqlite/sqlite-pet-repository.js';
import { forEveryStorage } from '../support/every-storage.js';
import { storeArchiveContract, type StoreArchiveUnderTest } from './store-archive.contract.js';

type Stores = Omit<StoreArchiveUnderTest, 'close'>;

forEveryStorage<Stores>(
  {
    memory: () => {
      const records = new MemoryIdempotencyStore();
      const pets = new MemoryPetRepository(records);
      const apiKeys = new MemoryApiKeyStore();
      return { archive: new MemoryStoreArchive(pets, apiKeys, records), pets, apiKeys };
    },
    sqlite: (db) => ({ archive: new SqliteStoreArchive(db), pets: new SqlitePetRepository(db), apiKeys: new SqliteApiKeyStore(db) }),
    postgres: (pool) => ({
      archive: new PostgresStoreArchive(pool),
      pets: new PostgresPetRepository(pool),
      apiKeys: new PostgresApiKeyStore(pool),
    }),
  },
  (name, open) =>
    storeArchiveContract(name, async () => {
      const { adapter, close } = await open();
      return { ...adapter, close };
    }),
);
