// The IdempotencyStore contract, run against every adapter of the port.
import { MemoryIdempotencyStore } from '../../src/adapters/memory/memory-idempotency-store.js';
import { PostgresIdempotencyStore } from '../../src/adapters/postgres/postgres-idempotency-store.js';
import { SqliteIdempotencyStore } from '../../src/adapters/sqlite/sqlite-idempotency-store.js';
import type { IdempotencyStore } from '../../src/domain/index.js';
import { forEveryStorage } from '../support/every-storage.js';
import { idempotencyStoreContract } from './idempotency-store.contract.js';

forEveryStorage<IdempotencyStore>(
  {
    memory: () => new MemoryIdempotencyStore(),
    sqlite: (db) => new SqliteIdempotencyStore(db),
    postgres: (pool) => new PostgresIdempotencyStore(pool),
  },
  (name, open) =>
    idempotencyStoreContract(name, async () => {
      const { adapter, close } = await open();
      return { store: adapter, close };
    }),
);
