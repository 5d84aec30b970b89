// The PetRepository contract, run against every adapter of the port.
import { MemoryPetRepository } from '../../src/adapters/memory/memory-pet-repository.js';
import { PostgresPetRepository } from '../../src/adapters/postgres/postgres-pet-repository.js';
import { SqlitePetRepository } from '../../src/adapters/sqlite/sqlite-pet-repository.js';
import type { PetRepository } from '../../src/domain/index.js';
import { forEveryStorage } from '../support/every-storage.js';
import { petRepositoryContract } from './pet-repository.contract.js';

forEveryStorage<PetRepository>(
  {
    memory: () => new MemoryPetRepository(),
    sqlite: (db) => new SqlitePetRepository(db),
    postgres: (pool) => new PostgresPetRepository(pool),
  },
  (name, open) =>
    petRepositoryContract(name, async () => {
      const { adapter, close } = await open();
      return { repository: adapter, close };
    }),
);
