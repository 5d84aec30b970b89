import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type { TaskEither } from 'fp-ts/lib/TaskEither.js';
import type { PetNotFound, PreconditionFailed } from '../errors.js';
import type { PetId } from '../pet.js';
import type { ExpectedVersion } from '../pet-changes.js';
import type { PetRepository } from '../ports/index.js';
import { changeAtVersion } from './change-at-version.js';

/** A deletion: which pet, and the versions the client expects it in. */
export interface DeletePetRequest {
  readonly id: PetId;
  /** `any` without a condition; otherwise the pet is deleted only in one of these versions. */
  readonly expected: ExpectedVersion;
  /** Versions the pet is not deleted in; `any`: in none. None by default. */
  readonly excluded?: ExpectedVersion | undefined;
}

/** The use case that deletes a pet for good: its id is never given to another. */
export type DeletePet = (request: DeletePetRequest) => TaskEither<PetNotFound | PreconditionFailed, void>;

/** Deletes a pet, in any status. */
export const deletePet =
  (pets: PetRepository): DeletePet =>
  ({ id, expected, excluded }) =>
  () =>
    changeAtVersion(pets, id, { expected, excluded }, async (current) =>
      E.right((await pets.remove(id, current.version)) ? O.some(undefined) : O.none),
    );
