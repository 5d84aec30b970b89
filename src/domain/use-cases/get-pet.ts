import * as E from 'fp-ts/lib/Either.js';
import type { TaskEither } from 'fp-ts/lib/TaskEither.js';
import { type PetNotFound, petNotFound } from '../errors.js';
import type { Pet, PetId } from '../pet.js';
import type { PetRepository } from '../ports.js';

/** The use case that fetches one pet, or answers {@link PetNotFound}. */
export type GetPet = (id: PetId) => TaskEither<PetNotFound, Pet>;

/** Fetches one pet by its id, or says that no pet has it. */
export const getPet =
  (pets: PetRepository): GetPet =>
  (id) =>
  () =>
    pets.findById(id).then(E.fromOption(() => petNotFound(id)));
