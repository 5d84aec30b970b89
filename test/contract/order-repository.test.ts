// The OrderRepository contract on every storage, each with the pets, inventory and outbox of the same storage.
import { forEveryStorage } from '../support/every-storage.js';
import { ORDER_STORAGE } from '../support/order-storage.js';
import { orderRepositoryContract } from './order-repository.contract.js';

forEveryStorage(ORDER_STORAGE, (name, open) =>
  orderRepositoryContract(name, async () => {
    const { adapter, close } = await open();
    return { ...adapter, close };
  }),
);
