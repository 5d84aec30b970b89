// The PetRepository contract, run against every adapter of the port.
import { join } from 'node:path';
import { MemoryPetRepository } from '../../src/adapters/memory/memory-pet-repository.js';
import { openSqliteDatabase, SQLITE_IN_MEMORY } from '../../src/adapters/sqlite/open-sqlite-database.js';
import { SqlitePetRepository } from '../../src/adapters/sqlite/sqlite-pet-repository.js';
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
