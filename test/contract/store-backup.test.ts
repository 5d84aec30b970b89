// The StoreBackup contract, run against every adapter of the port.
import { memoryStoreBackup } from '../../src/adapters/memory/memory-archive.js';
import { MemoryPetRepository } from '../../src/adapters/memory/memory-pet-repository.js';
import { postgresStoreBackup } from '../../src/adapters/postgres/postgres-archive.js';
import { PostgresPetRepository } from '../../src/adapters/postgres/postgres-pet-repository.js';
import { openSqliteDatabase } from '../../src/adapters/sqlite/open-sqlite-database.js';
import { SqliteStoreBackup } from '../../src/adapters/sqlite/sqlite-backup.js';
import { SqlitePetRepository } from '../../src/adapters/sqlite/sqlite-pet-repository.js';
import { forEveryStorage } from '../support/every-storage.js';
import { type BackupUnderTest, storeBackupContract } from './store-backup.contract.js';

forEveryStorage<Omit<BackupUnderTest, 'close'>>(
  {
    memory: () => ({ backup: memoryStoreBackup, pets: new MemoryPetRepository(), copyOpener: undefined }),
    sqlite: (db) => ({
      backup: new SqliteStoreBackup(db),
      pets: new SqlitePetRepository(db),
      copyOpener: (file) => {
        const copy = openSqliteDatabase(file);
        return { pets: new SqlitePetRepository(copy), close: () => copy.close() };
      },
    }),
    postgres: (pool) => ({ backup: postgresStoreBackup, pets: new PostgresPetRepository(pool), copyOpener: undefined }),
  },
  (name, open) =>
    storeBackupContract(name, async () => {
      const { adapter, close } = await open();
      return { ...adapter, close };
    }),
);
