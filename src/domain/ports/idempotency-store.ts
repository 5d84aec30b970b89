// Where creation requests are remembered, so that a retry is answered instead of creating again.
import type { Pet } from '../pet.js';

/** Which request an idempotency record belongs to: the caller's scope and the client's key. */
export interface IdempotencyRecordId {
  /** The caller the key was sent by: keys of different callers never meet. */
  readonly scope: string;
  readonly key: string;
}

/** A claim of an idempotency key: the request's fingerprint and the times that bound the record. */
export interface IdempotencyClaimRequest extends IdempotencyRecordId {
  /** What the request asked for, canonically; a retry must ask for the same. */
  readonly fingerprint: string;
  readonly now: Date;
  /** When a record made by this claim may be forgotten. */
  readonly expiresAt: Date;
  /** Until when this claim holds while it is in progress; after that it counts as abandoned. */
  readonly leaseExpiresAt: Date;
}

/** A granted claim: the record it holds, and the token that proves it. */
export interface IdempotencyHold extends IdempotencyRecordId {
  readonly token: string;
}

/** What a claim found: nothing (so it is now in progress), a request in progress, or its result. */
export type IdempotencyClaim =
  /** `token` proves the claim: only its holder may complete or release the record. */
  | { readonly kind: 'claimed'; readonly token: string }
  | { readonly kind: 'in-progress'; readonly fingerprint: string }
  | { readonly kind: 'completed'; readonly fingerprint: string; readonly pet: Pet };

/**
 * Remembers which creation requests were already made, so a retried request is answered
 * with the original result instead of creating again. It lives in the same storage as the
 * pets, whose repository completes its records (PetRepository.createCompleting).
 */
export interface IdempotencyStore {
  /**
   * Atomically: when there is no live record for the id (none, expired at `now`, or in
   * progress with its lease run out), records the request as in progress and answers
   * `claimed`; otherwise answers the record as it is, changing nothing.
   */
  claim(request: IdempotencyClaimRequest): Promise<IdempotencyClaim>;
  /**
   * Forgets a claimed request that failed, so that it can be retried at once, if the claim
   * still holds the record (a claim whose lease ran out may have been taken over). A claimed
   * request that succeeds is completed by {@link PetRepository.createCompleting}.
   */
  release(id: IdempotencyRecordId, token: string): Promise<void>;
}
