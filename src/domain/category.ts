// What a category is: a name the store files its pets under, unique whatever its letters' case.
import * as t from 'io-ts';
import { exactObject } from './codec.js';
import { type CategoryId, MAX_PET_NAME_LENGTH } from './pet.js';
import { storedText } from './text.js';

/** Brand of {@link CategoryName}: a string that passed its rules. */
export interface CategoryNameBrand {
  readonly CategoryName: unique symbol;
}
/** A category's name: the rules of a pet's name (1 to 100 code points, not blank, no control characters). Stored verbatim. */
export const CategoryName = storedText<CategoryNameBrand>('CategoryName', MAX_PET_NAME_LENGTH, true);
export type CategoryName = t.TypeOf<typeof CategoryName>;

/**
 * What two names are compared by: equal keys are the same name. Case is folded fully (upper
 * then lower case, so that `ß`, `SS` and `ss` meet) after NFC, so that a letter and its
 * decomposed spelling meet too. The storages keep it in a uniquely indexed column: the index,
 * not a read before the write, is what keeps two racing creates from taking one name.
 */
export const categoryNameKey = (name: string): string => name.normalize('NFC').toUpperCase().toLowerCase();

/** The name that registering the categories pets use gives the category of `id` (`petstore categories register-used`). */
export const usedCategoryName = (id: CategoryId): CategoryName => `Category ${id}` as CategoryName;

/** The body of a creation request. */
export const NewCategory = exactObject('NewCategory', { name: CategoryName }, {});
export type NewCategory = t.TypeOf<typeof NewCategory>;

/** The body of a change: a JSON merge patch; only the name may change. */
export const CategoryPatch = exactObject('CategoryPatch', {}, { name: CategoryName });
export type CategoryPatch = t.TypeOf<typeof CategoryPatch>;

/** A category as stored and returned. Its id is one a pet's categoryId can name. */
export interface Category {
  readonly id: CategoryId;
  readonly name: CategoryName;
}

/** The version of a stored category: 1 when it is created, one more at each rename. */
export type CategoryVersion = number;

/** A category with its version, for ETags and compare-and-set writes. */
export interface VersionedCategory {
  readonly category: Category;
  readonly version: CategoryVersion;
}
