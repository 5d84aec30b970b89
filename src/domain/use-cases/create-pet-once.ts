import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type { TaskEither } from 'fp-ts/lib/TaskEither.js';
import { fingerprintOf } from '../creation-fingerprint.js';
import {
  type IdempotencyKeyInUse,
  idempotencyKeyInUse,
  type IdempotencyKeyReused,
  idempotencyKeyReused,
  type UnknownCategory,
} from '../errors.js';
import { IDEMPOTENCY_POLICY, type IdempotencyKey } from '../idempotency.js';
import type { NewPet, Pet } from '../pet.js';
import type { CategoryRule, Clock, IdempotencyStore, PetRepository } from '../ports/index.js';
import { draftOf, unknownCategoryOf } from './create-pet.js';

/** A creation with an idempotency key: who asks, with which key, for which pet. */
export interface CreatePetOnceRequest {
  /** The caller the key belongs to (its identity, never its API key). */
  readonly scope: string;
  readonly key: IdempotencyKey;
  readonly newPet: NewPet;
}

/** The answer of {@link CreatePetOnce}: the pet, and whether it was created earlier by the same key. */
export interface CreatedPet {
  readonly pet: Pet;
  /** True when this is the answer of an earlier request with the same key. */
  readonly replayed: boolean;
}

/** The use case that adds a pet at most once per idempotency key and caller. */
export type CreatePetOnce = (
  request: CreatePetOnceRequest,
) => TaskEither<IdempotencyKeyInUse | IdempotencyKeyReused | UnknownCategory, CreatedPet>;

/**
 * Adds a pet at most once per idempotency key: a retry with the same key and the same pet
 * gets the original pet; the same key for another pet, or while the first request is
 * still in progress, is refused.
 */
export const createPetOnce =
  (pets: PetRepository, store: IdempotencyStore, clock: Clock, rule: CategoryRule = 'open'): CreatePetOnce =>
  ({ scope, key, newPet }) =>
  async () => {
    const draft = draftOf(newPet);
    const fingerprint = fingerprintOf(draft);
    const now = clock.now();
    const claim = await store.claim({
      scope,
      key,
      fingerprint,
      now,
      expiresAt: new Date(now.getTime() + IDEMPOTENCY_POLICY.retentionMs),
      leaseExpiresAt: new Date(now.getTime() + IDEMPOTENCY_POLICY.leaseMs),
    });
    if (claim.kind !== 'claimed') {
      if (claim.fingerprint !== fingerprint) return E.left(idempotencyKeyReused);
      return claim.kind === 'completed' ? E.right({ pet: claim.pet, replayed: true }) : E.left(idempotencyKeyInUse);
    }
    let created: O.Option<Pet>;
    try {
      // The pet and the record's completion are stored together: a retry finds either both or neither.
      created = await pets.createCompleting(draft, { scope, key, token: claim.token }, rule);
    } catch (fault) {
      // Released: a retry with the key is a new request (in a category created meanwhile, say).
      await store.release({ scope, key }, claim.token);
      return unknownCategoryOf(fault);
    }
    // None: this claim's lease ran out and another request holds the key now; it creates the pet.
    return O.isSome(created) ? E.right({ pet: created.value, replayed: false }) : E.left(idempotencyKeyInUse);
  };
