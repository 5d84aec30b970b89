import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type { TaskEither } from 'fp-ts/lib/TaskEither.js';
import type { InvalidTransition, PetNotFound, PetReserved, PreconditionFailed, UnknownCategory } from '../errors.js';
import type { PetId } from '../pet.js';
import {
  canChangeStatus,
  changesNothing,
  patchedPet,
  type PatchRequest,
  type PetPatch,
  statusesAllowedFrom,
  type VersionedPet,
} from '../pet-changes.js';
import type { CategoryRule, PetRepository } from '../ports/index.js';
import { changeAtVersion } from './change-at-version.js';
import { type OpenOrders, reservationOf } from './pet-reservation.js';
import { unknownCategoryOf } from './create-pet.js';

/** A change of a pet: which one, the merge patch of its fields, and the versions the client expects it in. */
export type UpdatePetRequest = PatchRequest<PetId, PetPatch>;

/** The use case that changes a pet's fields, within the status transitions. */
export type UpdatePet = (
  request: UpdatePetRequest,
) => TaskEither<PetNotFound | PreconditionFailed | InvalidTransition | PetReserved | UnknownCategory, VersionedPet>;

/**
 * Changes a pet: the fields of the patch replace the pet's. A status its current one does not
 * lead to is refused; a patch that changes nothing (`{}`, or the values the pet has) stores
 * nothing and keeps the version. While the pet has an open order in `orders`, a change of its
 * status is refused (its name and category may still change).
 */
export const updatePet =
  (pets: PetRepository, orders?: OpenOrders, rule: CategoryRule = 'open'): UpdatePet =>
  ({ id, patch, expected, excluded }) =>
  () =>
    changeAtVersion(pets, id, { expected, excluded }, async (current) => {
      const draft = patchedPet(current.pet, patch);
      const from = current.pet.status;
      if (!canChangeStatus(from, draft.status)) {
        return E.left<InvalidTransition>({
          code: 'invalid_transition',
          petId: String(id),
          from,
          to: draft.status,
          allowed: statusesAllowedFrom(from),
        });
      }
      if (changesNothing(current.pet, draft)) return E.right(O.some(current));
      const reserved = draft.status === from ? undefined : await reservationOf(orders, id);
      if (reserved !== undefined) return E.left(reserved);
      return pets.update(id, current.version, draft, rule).then(E.right, unknownCategoryOf);
    });
