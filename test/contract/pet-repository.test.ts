// The PetRepository contract, run against every adapter of the port, each with the
// IdempotencyStore of the same storage, whose records createCompleting completes.
import { forEveryStorage } from '../support/every-storage.js';
import { PET_STORAGE } from '../support/pet-storage.js';
import { petChangesContract } from './pet-changes.contract.js';
import { petRepositoryContract } from './pet-repository.contract.js';

forEveryStorage(PET_STORAGE, (name, open) => {
  const opened = async () => {
    const { adapter, close } = await open();
    return { ...adapter, close };
  };
  petRepositoryContract(name, opened);
  petChangesContract(name, opened);
});
