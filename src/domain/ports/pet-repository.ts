// Where pets are kept: the repository every storage implements.
import type { Option } from 'fp-ts/lib/Option.js';
import type { CategoryId, Pet, PetDraft, PetId, PetStatus } from '../pet.js';
import type { PetVersion, VersionedPet } from '../pet-changes.js';
import type { IdempotencyHold } from './idempotency-store.js';

/** Which pets {@link PetRepository.list} answers. */
export interface PetListQuery {
  /** At most this many pets: a positive integer. */
  readonly limit: number;
  /** Only pets with this status; all pets when absent. */
  readonly status?: PetStatus;
  /** Only pets of this category (with `status`, of both); all categories when absent. */
  readonly categoryId?: CategoryId;
  /** Only pets whose id is greater than this one: keyset paging, as cheap deep as shallow. */
  readonly afterId?: PetId;
}

/**
 * Whether a pet's categoryId must name a stored category (PETSTORE_CATEGORIES): `open` takes
 * any; `registered` stores a pet only in a category that exists, checked in the write's
 * transaction so that a concurrent delete of the category either waits for the write (and then
 * finds the pet: category_in_use) or comes first (and the write is refused). A refused write
 * stores nothing and rejects with UnknownCategoryError.
 */
export type CategoryRule = 'open' | 'registered';

/** Where pets are kept. The memory adapter defines the behaviour; every adapter passes the same contract suite. */
export interface PetRepository {
  /** Stores a pet and returns it with its new id; ids only ever increase. */
  create(draft: PetDraft, rule?: CategoryRule): Promise<Pet>;
  /**
   * Stores a pet as the result of the idempotency record that `hold` claimed, together with
   * that record's completion, in one transaction: both happen or neither does, so no crash
   * or failure between them can leave a pet that a retry of the key would create again.
   * Answers the pet; or none, storing nothing, when the claim no longer holds the record (its
   * lease ran out and another request claimed the key, or it was released). The records are
   * those of the {@link IdempotencyStore} in the same storage.
   */
  createCompleting(draft: PetDraft, hold: IdempotencyHold, rule?: CategoryRule): Promise<Option<Pet>>;
  findById(id: PetId): Promise<Option<Pet>>;
  /** At most `limit` pets, in ascending id order, after `afterId` when given. */
  list(query: PetListQuery): Promise<readonly Pet[]>;
  /** The pet with its version (1 for a pet never changed), or none. */
  findVersioned(id: PetId): Promise<Option<VersionedPet>>;
  /**
   * Compare-and-set: replaces the fields of the pet with `draft` and adds one to its version,
   * only if its version is still `version`, atomically (no other change can come between the
   * comparison and the write, from any process). Answers the pet as stored, or none, changing
   * nothing, when no pet has the id or its version is another. With the rule `registered`, a
   * draft that moves the pet to another category needs that category to exist.
   */
  update(id: PetId, version: PetVersion, draft: PetDraft, rule?: CategoryRule): Promise<Option<VersionedPet>>;
  /**
   * Compare-and-set: deletes the pet only if its version is still `version`, atomically.
   * True when it was deleted; false, changing nothing, when no pet has the id or its version is
   * another. A deleted pet's id is never given to another pet.
   */
  remove(id: PetId, version: PetVersion): Promise<boolean>;
}
