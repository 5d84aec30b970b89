import * as E from 'fp-ts/lib/Either.js';
import type { TaskEither } from 'fp-ts/lib/TaskEither.js';
import { DEFAULT_PET_STATUS, type NewPet, type Pet } from '../pet.js';
import type { PetRepository } from '../ports.js';

export type CreatePet = (newPet: NewPet) => TaskEither<never, Pet>;

/** Adds a pet; one created without a status is `available`. */
export const createPet =
  (pets: PetRepository): CreatePet =>
  (newPet) =>
  () =>
    pets
      .create({ name: newPet.name, categoryId: newPet.categoryId, status: newPet.status ?? DEFAULT_PET_STATUS })
      .then(E.right);
