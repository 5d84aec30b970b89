// The ApiKeyStore contract, run against every adapter of the port.
import { MemoryApiKeyStore } from '../../src/adapters/memory/memory-api-key-store.js';
import { PostgresApiKeyStore } from '../../src/adapters/postgres/postgres-api-key-store.js';
import { SqliteApiKeyStore } from '../../src/adapters/sqlite/sqlite-api-key-store.js';
import type { ApiKeyStore } from '../../src/domain/index.js';
import { forEveryStorage } from '../support/every-storage.js';
import { apiKeyStoreContract } from './api-key-store.contract.js';

forEveryStorage<ApiKeyStore>(
  {
    memory: () => new MemoryApiKeyStore(),
    sqlite: (db) => new SqliteApiKeyStore(db),
    postgres: (pool) => new PostgresApiKeyStore(pool),
  },
  (name, open) =>
    apiKeyStoreContract(name, async () => {
      const { adapter, close } = await open();
      return { store: adapter, close };
    }),
);
