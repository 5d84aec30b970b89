// The IdempotencyStore contract, run against every adapter of the port, each with the
// PetRepository of the same storage, which completes its records.
import { forEveryStorage } from '../support/every-storage.js';
import { PET_STORAGE } from '../support/pet-storage.js';
import { idempotencyStoreContract } from './idempotency-store.contract.js';

forEveryStorage(PET_STORAGE, (name, open) =>
  idempotencyStoreContract(name, async () => {
    const { adapter, close } = await open();
    return { ...adapter, close };
  }),
);
