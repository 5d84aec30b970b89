// The loop every change of a stored pet runs: read the pet and its version, check what the
// request expects of it, write with compare-and-set, and read again when another change came first.
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import { type PetNotFound, petNotFound, type PreconditionFailed, preconditionFailed } from '../errors.js';
import type { PetId } from '../pet.js';
import { failedCondition, type VersionCondition, type VersionedPet } from '../pet-changes.js';
import type { PetRepository } from '../ports/index.js';

/**
 * What a change does to the pet as read: refuses (Left), is made (Right of some), or finds
 * that the pet changed since it was read (Right of none: its compare-and-set wrote nothing).
 */
export type ChangeStep<F, A> = (current: VersionedPet) => Promise<E.Either<F, O.Option<A>>>;

/**
 * Makes `change` on the pet as it is now. When another change wins between the read and the
 * write, the pet is read again and everything is checked again, on the newer version: a
 * request without a condition is applied last (last write wins, but never past the rules),
 * and a conditional one then finds its version gone and fails its precondition.
 */
export async function changeAtVersion<F, A>(
  pets: PetRepository,
  id: PetId,
  condition: VersionCondition,
  change: ChangeStep<F, A>,
): Promise<E.Either<PetNotFound | PreconditionFailed | F, A>> {
  for (;;) {
    const found = await pets.findVersioned(id);
    if (O.isNone(found)) return E.left(petNotFound(id));
    const failed = failedCondition(found.value.version, condition);
    if (failed !== undefined) return E.left(preconditionFailed(id, failed));
    const outcome = await change(found.value);
    if (E.isLeft(outcome)) return outcome;
    if (O.isSome(outcome.right)) return E.right(outcome.right.value);
  }
}
