import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type { TaskEither } from 'fp-ts/lib/TaskEither.js';
import type { PetNotFound, PetReserved, PreconditionFailed } from '../errors.js';
import type { PetId } from '../pet.js';
import type { ChangeRequest } from '../pet-changes.js';
import type { PetRepository } from '../ports/index.js';
import { changeAtVersion } from './change-at-version.js';
import { type OpenOrders, reservationOf } from './pet-reservation.js';

/** A deletion: which pet, and the versions the client expects it in. */
export type DeletePetRequest = ChangeRequest<PetId>;

/** The use case that deletes a pet for good: its id is never given to another. */
export type DeletePet = (request: DeletePetRequest) => TaskEither<PetNotFound | PreconditionFailed | PetReserved, void>;

/** Deletes a pet, in any status, unless it has an open order in `orders`. */
export const deletePet =
  (pets: PetRepository, orders?: OpenOrders): DeletePet =>
  ({ id, expected, excluded }) =>
  () =>
    changeAtVersion(pets, id, { expected, excluded }, async (current) => {
      const reserved = await reservationOf(orders, id);
      if (reserved !== undefined) return E.left(reserved);
      return E.right((await pets.remove(id, current.version)) ? O.some(undefined) : O.none);
    });
