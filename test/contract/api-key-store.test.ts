// The ApiKeyStore contract, run against every adapter of the port.
import { join } from 'node:path';
import { MemoryApiKeyStore } from '../../src/adapters/memory/memory-api-key-store.js';
import { openPostgresPool } from '../../src/adapters/postgres/create-postgres-pool.js';
import { PostgresApiKeyStore } from '../../src/adapters/postgres/postgres-api-key-store.js';
import { openSqliteDatabase, SQLITE_IN_MEMORY } from '../../src/adapters/sqlite/open-sqlite-database.js';
import { SqliteApiKeyStore } from '../../src/adapters/sqlite/sqlite-api-key-store.js';
import { createTestSchema, describeWithPostgres } from '../support/postgres.js';
import { tempDir } from '../support/temp-dir.js';
import { apiKeyStoreContract } from './api-key-store.contract.js';

apiKeyStoreContract('memory', async () => ({ store: new MemoryApiKeyStore(), close: async () => {} }));

apiKeyStoreContract('SQLite in memory', async () => {
  const db = openSqliteDatabase(SQLITE_IN_MEMORY);
  return { store: new SqliteApiKeyStore(db), close: async () => void db.close() };
});

apiKeyStoreContract('SQLite on a file', async () => {
  const dir = tempDir();
  const db = openSqliteDatabase(join(dir.path, 'petstore.db'));
  return {
    store: new SqliteApiKeyStore(db),
    close: async () => {
      db.close();
      dir.remove();
    },
  };
});

describeWithPostgres('PostgreSQL', () => {
  apiKeyStoreContract('PostgreSQL', async () => {
    const schema = await createTestSchema();
    const pool = await openPostgresPool({ url: schema.url, poolSize: 2 });
    return {
      store: new PostgresApiKeyStore(pool),
      close: async () => {
        await pool.end();
        await schema.drop();
      },
    };
  });
});
