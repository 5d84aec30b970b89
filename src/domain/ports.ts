// The ports: what the domain needs from the outside world, as interfaces only.
// Every port is asynchronous so that in-process (memory, SQLite) and network (PostgreSQL)
// adapters fit the same shape. A rejected promise means the adapter could not do its job
// (an infrastructure fault); it is never used for an expected outcome such as "not found".
import type { Option } from 'fp-ts/lib/Option.js';
import type { ApiKeyId, ApiKeyLabel, ApiKeyRecord } from './api-key.js';
import type { Pet, PetDraft, PetId, PetStatus } from './pet.js';
import type { PetVersion, VersionedPet } from './pet-changes.js';

/** Which pets {@link PetRepository.list} answers. */
export interface PetListQuery {
  /** At most this many pets: a positive integer. */
  readonly limit: number;
  /** Only pets with this status; all pets when absent. */
  readonly status?: PetStatus;
  /** Only pets whose id is greater than this one: keyset paging, as cheap deep as shallow. */
  readonly afterId?: PetId;
}

/** Where pets are kept. The memory adapter defines the behaviour; every adapter passes the same contract suite. */
export interface PetRepository {
  /** Stores a pet and returns it with its new id; ids only ever increase. */
  create(draft: PetDraft): Promise<Pet>;
  /**
   * Stores a pet as the result of the idempotency record that `hold` claimed, together with
   * that record's completion, in one transaction: both happen or neither does, so no crash
   * or failure between them can leave a pet that a retry of the key would create again.
   * Answers the pet; or none, storing nothing, when the claim no longer holds the record (its
   * lease ran out and another request claimed the key, or it was released). The records are
   * those of the {@link IdempotencyStore} in the same storage.
   */
  createCompleting(draft: PetDraft, hold: IdempotencyHold): Promise<Option<Pet>>;
  findById(id: PetId): Promise<Option<Pet>>;
  /** At most `limit` pets, in ascending id order, after `afterId` when given. */
  list(query: PetListQuery): Promise<readonly Pet[]>;
  /** The pet with its version (1 for a pet never changed), or none. */
  findVersioned(id: PetId): Promise<Option<VersionedPet>>;
  /**
   * Compare-and-set: replaces the fields of the pet with `draft` and adds one to its version,
   * only if its version is still `version`, atomically (no other change can come between the
   * comparison and the write, from any process). Answers the pet as stored, or none, changing
   * nothing, when no pet has the id or its version is another.
   */
  update(id: PetId, version: PetVersion, draft: PetDraft): Promise<Option<VersionedPet>>;
  /**
   * Compare-and-set: deletes the pet only if its version is still `version`, atomically.
   * True when it was deleted; false, changing nothing, when no pet has the id or its version is
   * another. A deleted pet's id is never given to another pet.
   */
  remove(id: PetId, version: PetVersion): Promise<boolean>;
}

/** Who is calling: the identity behind a valid API key, safe to log (it is never the key). */
export interface Caller {
  readonly id: string;
}

/** Tells who a presented API key belongs to. */
export interface ApiKeyVerifier {
  /** The caller the key belongs to, or none when the key is unknown. */
  verify(apiKey: string): Promise<Option<Caller>>;
}

/** The time, as a port so that tests can hold it still. */
export interface Clock {
  now(): Date;
}

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

/** What is stored of a new API key: its digest and record, never the key itself. */
export interface NewApiKeyRecord {
  /** The SHA-256 of the key, in lower-case hex (64 characters). */
  readonly digest: string;
  readonly callerId: string;
  readonly label: ApiKeyLabel;
  readonly createdAt: Date;
}

/** A stored API key found by its digest: its record and the digest it was stored with. */
export interface StoredApiKey {
  readonly record: ApiKeyRecord;
  readonly digest: string;
}

/**
 * The API keys kept in the service's database, as digests: several may be active at once,
 * so a key can be rotated without downtime, and a revoked key stays listed but is no longer found.
 */
export interface ApiKeyStore {
  /** Stores a new key with the next id (ids only ever increase); rejects a digest that is already stored. */
  create(key: NewApiKeyRecord): Promise<ApiKeyRecord>;
  /** Every stored key, active and revoked, in ascending id order. */
  list(): Promise<readonly ApiKeyRecord[]>;
  /** The active key with this digest, or none when no key has it or its key was revoked. */
  findActive(digest: string): Promise<Option<StoredApiKey>>;
  /**
   * Revokes a key from `at` on and answers its record; a key revoked before keeps its first
   * revocation time. None when no key has this id.
   */
  revoke(id: ApiKeyId, at: Date): Promise<Option<ApiKeyRecord>>;
}

/** Makes new API keys and their digests: randomness and hashing, which the domain leaves to an adapter. */
export interface ApiKeyGenerator {
  /** A fresh random key, never stored. */
  generate(): string;
  /** The digest of `key`: all that an ApiKeyStore keeps of it. */
  digest(key: string): string;
}
