// The domain's failures: a closed union of plain values, each with a stable code.
// They are results, not exceptions; the HTTP adapter turns each into a response exactly once.
import type { PetId } from './pet.js';

/** No pet has the id asked for. */
export interface PetNotFound {
  readonly code: 'pet_not_found';
  /** The id that was looked for, in decimal (it may be an int64 beyond what a PetId holds). */
  readonly petId: string;
}

/** The {@link PetNotFound} failure for an id. */
export const petNotFound = (petId: PetId | bigint): PetNotFound => ({ code: 'pet_not_found', petId: String(petId) });

/** A request with this idempotency key is still being processed. */
export interface IdempotencyKeyInUse {
  readonly code: 'idempotency_key_in_use';
}

/** This idempotency key was already used for a request that asked for something else. */
export interface IdempotencyKeyReused {
  readonly code: 'idempotency_key_reused';
}

/** The {@link IdempotencyKeyInUse} failure. */
export const idempotencyKeyInUse: IdempotencyKeyInUse = { code: 'idempotency_key_in_use' };
/** The {@link IdempotencyKeyReused} failure. */
export const idempotencyKeyReused: IdempotencyKeyReused = { code: 'idempotency_key_reused' };

/** Every failure a use case can return. Adding one is a compile error wherever it is not handled. */
export type DomainError = PetNotFound | IdempotencyKeyInUse | IdempotencyKeyReused;
