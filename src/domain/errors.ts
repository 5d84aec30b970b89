// The domain's failures: a closed union of plain values, each with a stable code.
// They are results, not exceptions; the HTTP adapter turns each into a response exactly once.
import type { PetId, PetStatus } from './pet.js';

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

/** A change would move a pet to a status its current status does not lead to. */
export interface InvalidTransition {
  readonly code: 'invalid_transition';
  readonly petId: string;
  readonly from: PetStatus;
  readonly to: PetStatus;
  /** The statuses the pet may be moved to from `from`: none when `from` is final. */
  readonly allowed: readonly PetStatus[];
}

/** The pet is not in the version the request was conditional on (If-Match): nothing was changed. */
export interface PreconditionFailed {
  readonly code: 'precondition_failed';
  readonly petId: string;
  /** Which condition the pet's version failed: `expected` (not one it had to be in) or `excluded` (one it must not be in). */
  readonly failed: 'expected' | 'excluded';
}

/** The {@link PreconditionFailed} failure for an id. */
export const preconditionFailed = (petId: PetId, failed: PreconditionFailed['failed'] = 'expected'): PreconditionFailed => ({
  code: 'precondition_failed',
  petId: String(petId),
  failed,
});

/** Every failure a use case can return. Adding one is a compile error wherever it is not handled. */
export type DomainError = PetNotFound | IdempotencyKeyInUse | IdempotencyKeyReused | InvalidTransition | PreconditionFailed;
