// The StoreArchive contract, run against every adapter of the port, each with the repository and key store of its storage.
import { MemoryCategoryRepository } from '../../src/adapters/memory/memory-category-repository.js';
import { MemoryApiKeyStore } from '../../src/adapters/memory/memory-api-key-store.js';
import { MemoryStoreArchive } from '../../src/adapters/memory/memory-archive.js';
import { MemoryIdempotencyStore } from '../../src/adapters/memory/memory-idempotency-store.js';
import { MemoryOrderRepository } from '../../src/adapters/memory/memory-order-repository.js';
import { MemoryPetRepository } from '../../src/adapters/memory/memory-pet-repository.js';
import { PostgresApiKeyStore } from '../../src/adapters/postgres/postgres-api-key-store.js';
import { PostgresStoreArchive } from '../../src/adapters/postgres/postgres-archive.js';
import { PostgresOrderRepository } from '../../src/adapters/postgres/postgres-order-repository.js';
import { PostgresPetRepository } from '../../src/adapters/postgres/postgres-pet-repository.js';
import { SqliteApiKeyStore } from '../../src/adapters/sqlite/sqlite-api-key-store.js';
import { SqliteStoreArchive } from '../../src/adapters/sqlite/sqlite-archive.js';
import { SqliteOrderRepository } from '../../src/adapters/sqlite/sqlite-order-repository.js';
import { SqlitePetRepository } from '../../src/adapters/sqlite/sqlite-pet-repository.js';
import { forEveryStorage } from '../support/every-storage.js';
import { orderArchiveContract, type OrderArchiveUnderTest } from './order-archive.contract.js';
import { storeArchiveContract, type StoreArchiveUnderTest } from './store-archive.contract.js';

type Stores = Omit<StoreArchiveUnderTest, 'close'> & Pick<OrderArchiveUnderTest, 'orders'>;

forEveryStorage<Stores>(
  {
    memory: () => {
      const records = new MemoryIdempotencyStore();
      const pets = new MemoryPetRepository(records);
      const apiKeys = new MemoryApiKeyStore();
      const orders = new MemoryOrderRepository(pets);
      return { archive: new MemoryStoreArchive(pets, apiKeys, records, orders, new MemoryCategoryRepository(pets)), pets, apiKeys, orders };
    },
    sqlite: (db) => ({
      archive: new SqliteStoreArchive(db),
      pets: new SqlitePetRepository(db),
      apiKeys: new SqliteApiKeyStore(db),
      orders: new SqliteOrderRepository(db),
    }),
    postgres: (pool) => ({
      archive: new PostgresStoreArchive(pool),
      pets: new PostgresPetRepository(pool),
      apiKeys: new PostgresApiKeyStore(pool),
      orders: new PostgresOrderRepository(pool, false),
    }),
  },
  (name, open) => {
    const opened = async () => {
      const { adapter, close } = await open();
      return { ...adapter, close };
    };
    storeArchiveContract(name, opened);
    orderArchiveContract(name, opened);
  },
);
