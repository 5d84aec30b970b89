import * as E from 'fp-ts/lib/Either.js';
import type { TaskEither } from 'fp-ts/lib/TaskEither.js';
import type { Pet } from '../pet.js';
import type { PetListQuery, PetRepository } from '../ports.js';

export type ListPets = (query: PetListQuery) => TaskEither<never, readonly Pet[]>;

/** Lists pets in ascending id order, at most `limit`, optionally only those of one status. */
export const listPets =
  (pets: PetRepository): ListPets =>
  (query) =>
  () =>
    pets.list(query).then(E.right);
