// The PetRepository contract, run against every adapter of the port.
import { join } from 'node:path';
import { MemoryPetRepository } from '../../src/adapters/memory/memory-pet-repository.js';
import { openPostgresPool } from '../../src/adapters/postgres/create-postgres-pool.js';
import { PostgresPetRepository } from '../../src/adapters/postgres/postgres-pet-repository.js';
import { openSqliteDatabase, SQLITE_IN_MEMORY } from '../../src/adapters/sqlite/open-sqlite-database.js';
import { SqlitePetRepository } from '../../src/adapters/sqlite/sqlite-pet-repository.js';
import { createTestSchema, describeWithPostgres } from '../support/postgres.js';
import { tempDir } from '../support/temp-dir.js';
import { petRepositoryContract } from './pet-repository.contract.js';

petRepositoryContract('memory', async () => ({ repository: new MemoryPetRepository(), close: async () => {} }));

petRepositoryContract('SQLite in memory', async () => {
  const db = openSqliteDatabase(SQLITE_IN_MEMORY);
  return { repository: new SqlitePetRepository(db), close: async () => void db.close() };
});

petRepositoryContract('SQLite on a file', async () => {
  const dir = tempDir();
  const db = openSqliteDatabase(join(dir.path, 'nested', 'pets.db'));
  return {
    repository: new SqlitePetRepository(db),
    close: async () => {
      db.close();
      dir.remove();
    },
  };
});

describeWithPostgres('PostgreSQL', () => {
  petRepositoryContract('PostgreSQL', async () => {
    const schema = await createTestSchema();
    const pool = await openPostgresPool({ url: schema.url, poolSize: 4 });
    return {
      repository: new PostgresPetRepository(pool),
      close: async () => {
        await pool.end();
        await schema.drop();
      },
    };
  });
});
