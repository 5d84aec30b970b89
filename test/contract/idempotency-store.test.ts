// The IdempotencyStore contract, run against every adapter of the port.
import { join } from 'node:path';
import { MemoryIdempotencyStore } from '../../src/adapters/memory/memory-idempotency-store.js';
import { openPostgresPool } from '../../src/adapters/postgres/create-postgres-pool.js';
import { PostgresIdempotencyStore } from '../../src/adapters/postgres/postgres-idempotency-store.js';
import { openSqliteDatabase, SQLITE_IN_MEMORY } from '../../src/adapters/sqlite/open-sqlite-database.js';
import { SqliteIdempotencyStore } from '../../src/adapters/sqlite/sqlite-idempotency-store.js';
import { createTestSchema, describeWithPostgres } from '../support/postgres.js';
import { tempDir } from '../support/temp-dir.js';
import { idempotencyStoreContract } from './idempotency-store.contract.js';

idempotencyStoreContract('memory', async () => ({ store: new MemoryIdempotencyStore(), close: async () => {} }));

idempotencyStoreContract('SQLite in memory', async () => {
  const db = openSqliteDatabase(SQLITE_IN_MEMORY);
  return { store: new SqliteIdempotencyStore(db), close: async () => void db.close() };
});

idempotencyStoreContract('SQLite on a file', async () => {
  const dir = tempDir();
  const db = openSqliteDatabase(join(dir.path, 'petstore.db'));
  return {
    store: new SqliteIdempotencyStore(db),
    close: async () => {
      db.close();
      dir.remove();
    },
  };
});

describeWithPostgres('PostgreSQL', () => {
  idempotencyStoreContract('PostgreSQL', async () => {
    const schema = await createTestSchema();
    const pool = await openPostgresPool({ url: schema.url, poolSize: 4 });
    return {
      store: new PostgresIdempotencyStore(pool),
      close: async () => {
        await pool.end();
        await schema.drop();
      },
    };
  });
});
