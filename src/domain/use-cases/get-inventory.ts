import * as E from 'fp-ts/lib/Either.js';
import type { TaskEither } from 'fp-ts/lib/TaskEither.js';
import type { Inventory } from '../inventory.js';
import type { PetInventory } from '../ports/index.js';

/** The use case that answers the inventory: it cannot fail in the domain. */
export type GetInventory = () => TaskEither<never, Inventory>;

/** How many pets each status has, counted at one moment. */
export const getInventory =
  (inventory: PetInventory): GetInventory =>
  () =>
  () =>
    inventory.count().then(E.right);
