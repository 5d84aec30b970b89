// Where categories are kept: the repository every storage implements, beside the pets it names.
import type { Option } from 'fp-ts/lib/Option.js';
import type { Category, CategoryName, CategoryVersion, VersionedCategory } from '../category.js';
import type { CategoryId } from '../pet.js';

/** Which categories {@link CategoryRepository.list} answers. */
export interface CategoryListQuery {
  /** At most this many categories: a positive integer. */
  readonly limit: number;
  /** Only categories whose id is greater than this one: keyset paging, as for pets. */
  readonly afterId?: CategoryId;
}

/** What a create did: stored the category, or found its name taken (compared by categoryNameKey). */
export type CategoryCreation = { readonly kind: 'created'; readonly category: Category } | { readonly kind: 'name_taken' };

/** What a rename did: renamed it, found its name taken, or found it gone or at another version. */
export type CategoryRename =
  { readonly kind: 'renamed'; readonly category: VersionedCategory } | { readonly kind: 'name_taken' } | { readonly kind: 'changed' };

/** What a delete did: deleted it, found a pet in it, or found it gone or at another version. */
export type CategoryRemoval = 'removed' | 'in_use' | 'changed';

/** The categories that {@link CategoryRepository.registerUsed} registered, and those it could not. */
export interface RegisteredCategories {
  /** Each registered category, named `Category <id>`, in id order. */
  readonly registered: readonly Category[];
  /** The ids pets use whose `Category <id>` name another category holds: still without a record. */
  readonly nameTaken: readonly CategoryId[];
}

/**
 * Where categories are kept. The memory adapter defines the behaviour; every adapter passes
 * the same contract suite. Names are unique by categoryNameKey, held by the storage itself
 * (a unique index), so that two racing writes cannot take one name. Every change records its
 * event in the outbox of the same storage, in the change's transaction.
 */
export interface CategoryRepository {
  /**
   * Stores a category with a new id: above every id a category had (ids are never reused)
   * and above every categoryId a pet has, so that a new category never gathers pets filed
   * under a number before it existed.
   */
  create(name: CategoryName): Promise<CategoryCreation>;
  /** The category with its version (1 for one never renamed), or none. */
  findVersioned(id: CategoryId): Promise<Option<VersionedCategory>>;
  /** At most `limit` categories, in ascending id order, after `afterId` when given. */
  list(query: CategoryListQuery): Promise<readonly Category[]>;
  /** Compare-and-set: renames the category only if its version is still `version`, adding one to it. */
  rename(id: CategoryId, version: CategoryVersion, name: CategoryName): Promise<CategoryRename>;
  /**
   * Compare-and-set: deletes the category only if its version is still `version` and no pet
   * is in it, atomically: a pet created in it meanwhile either makes this answer `in_use`, or
   * (PETSTORE_CATEGORIES=registered) is refused for want of the category.
   */
  remove(id: CategoryId, version: CategoryVersion): Promise<CategoryRemoval>;
  /** Whether a category has this id. */
  exists(id: CategoryId): Promise<boolean>;
  /**
   * Registers every categoryId that pets use and no category has, as `Category <id>` with
   * that id, in one transaction; registering again adds nothing. Records their events.
   */
  registerUsed(): Promise<RegisteredCategories>;
}
