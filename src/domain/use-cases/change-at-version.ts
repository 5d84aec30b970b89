// The loop every change of a stored, versioned resource runs: read it and its version, check
// what the request expects of it, write with compare-and-set, and read again when another
// change came first. Pets and orders change this way.
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import { type PetNotFound, petNotFound, type PreconditionFailed, preconditionFailed } from '../errors.js';
import type { PetId } from '../pet.js';
import { failedCondition, type VersionCondition, type VersionedPet } from '../pet-changes.js';
import type { PetRepository } from '../ports/index.js';

/**
 * What a change does to the resource as read: refuses (Left), is made (Right of some), or
 * finds that it changed since it was read (Right of none: its compare-and-set wrote nothing).
 */
export type ChangeStep<F, A, V = VersionedPet> = (current: V) => Promise<E.Either<F, O.Option<A>>>;

/** How to read one versioned resource, and the failures of its absence and of a failed condition. */
export interface VersionedTarget<V extends { readonly version: number }, N, P> {
  find(): Promise<O.Option<V>>;
  notFound(): N;
  preconditionFailed(failed: 'expected' | 'excluded'): P;
}

/**
 * Makes `change` on the resource as it is now. When another change wins between the read and
 * the write, it is read again and everything is checked again, on the newer version: a request
 * without a condition is applied last (last write wins, but never past the rules), and a
 * conditional one then finds its version gone and fails its precondition.
 */
export async function changeVersioned<V extends { readonly version: number }, N, P, F, A>(
  target: VersionedTarget<V, N, P>,
  condition: VersionCondition,
  change: ChangeStep<F, A, V>,
): Promise<E.Either<N | P | F, A>> {
  for (;;) {
    const found = await target.find();
    if (O.isNone(found)) return E.left(target.notFound());
    const failed = failedCondition(found.value.version, condition);
    if (failed !== undefined) return E.left(target.preconditionFailed(failed));
    const outcome = await change(found.value);
    if (E.isLeft(outcome)) return outcome;
    if (O.isSome(outcome.right)) return E.right(outcome.right.value);
  }
}

/** {@link changeVersioned} on the pet `id` of `pets`. */
export const changeAtVersion = <F, A>(
  pets: PetRepository,
  id: PetId,
  condition: VersionCondition,
  change: ChangeStep<F, A>,
): Promise<E.Either<PetNotFound | PreconditionFailed | F, A>> =>
  changeVersioned(
    { find: () => pets.findVersioned(id), notFound: () => petNotFound(id), preconditionFailed: (failed) => preconditionFailed(id, failed) },
    condition,
    change,
  );
