import * as E from 'fp-ts/lib/Either.js';
import type { TaskEither } from 'fp-ts/lib/TaskEither.js';
import { DEFAULT_PET_STATUS, type NewPet, type Pet, type PetDraft } from '../pet.js';
import type { PetRepository } from '../ports/index.js';

/** The use case that adds a pet: it cannot fail in the domain (a rejected task is a fault of the store). */
export type CreatePet = (newPet: NewPet) => TaskEither<never, Pet>;

/** The pet a NewPet asks for: one created without a status is `available`. */
export const draftOf = (newPet: NewPet): PetDraft => ({
  name: newPet.name,
  categoryId: newPet.categoryId,
  status: newPet.status ?? DEFAULT_PET_STATUS,
});

/** Adds a pet. */
export const createPet =
  (pets: PetRepository): CreatePet =>
  (newPet) =>
  () =>
    pets.create(draftOf(newPet)).then(E.right);
