// The PetRepository contract, run against every adapter of the port, each with the
// IdempotencyStore of the same storage, whose records createCompleting completes.
import { forEveryStorage } from '../support/every-storage.js';
import { PET_STORAGE } from '../support/pet-storage.js';
import { petRepositoryContract } from './pet-repository.contract.js';

forEveryStorage(PET_STORAGE, (name, open) =>
  petRepositoryContract(name, async () => {
    const { adapter, close } = await open();
    return { ...adapter, close };
  }),
);
