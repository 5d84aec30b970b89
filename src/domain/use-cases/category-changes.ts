// Renaming and deleting a category: conditional on its version, as a pet's changes are.
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type { TaskEither } from 'fp-ts/lib/TaskEither.js';
import type { CategoryPatch, VersionedCategory } from '../category.js';
import {
  type CategoryInUse,
  type CategoryNameTaken,
  type CategoryNotFound,
  categoryNotFound,
  type CategoryPreconditionFailed,
  categoryPreconditionFailed,
} from '../errors.js';
import type { CategoryId } from '../pet.js';
import type { ChangeRequest, PatchRequest } from '../pet-changes.js';
import type { CategoryRepository } from '../ports/index.js';
import { changeVersioned } from './change-at-version.js';

/** A change of a category: which one, and the versions the client expects it in (If-Match, If-None-Match). */
export type CategoryChangeRequest = ChangeRequest<CategoryId>;

/** A rename: a merge patch of the category's name. */
export type RenameCategoryRequest = PatchRequest<CategoryId, CategoryPatch>;

/** The use case that renames a category. */
export type RenameCategory = (
  request: RenameCategoryRequest,
) => TaskEither<CategoryNotFound | CategoryPreconditionFailed | CategoryNameTaken, VersionedCategory>;

/** The use case that deletes a category no pet is in. */
export type DeleteCategory = (
  request: CategoryChangeRequest,
) => TaskEither<CategoryNotFound | CategoryPreconditionFailed | CategoryInUse, void>;

const categoryRecord = (categories: CategoryRepository, id: CategoryId) => ({
  find: () => categories.findVersioned(id),
  notFound: () => categoryNotFound(id),
  preconditionFailed: (failed: 'expected' | 'excluded') => categoryPreconditionFailed(id, failed),
});

/** Renames a category; a patch that changes nothing (`{}`, or its own name) stores nothing and keeps the version. */
export const renameCategory =
  (categories: CategoryRepository): RenameCategory =>
  ({ id, patch, expected, excluded }) =>
  () =>
    changeVersioned(categoryRecord(categories, id), { expected, excluded }, async (current) => {
      if (patch.name === undefined || patch.name === current.category.name) return E.right(O.some(current));
      const renamed = await categories.rename(id, current.version, patch.name);
      if (renamed.kind === 'name_taken') return E.left<CategoryNameTaken>({ code: 'category_name_taken', name: patch.name });
      return E.right(renamed.kind === 'renamed' ? O.some(renamed.category) : O.none);
    });

/** Deletes a category, unless a pet is in it. */
export const deleteCategory =
  (categories: CategoryRepository): DeleteCategory =>
  ({ id, expected, excluded }) =>
  () =>
    changeVersioned(categoryRecord(categories, id), { expected, excluded }, async (current) => {
      const removed = await categories.remove(id, current.version);
      if (removed === 'in_use') return E.left<CategoryInUse>({ code: 'category_in_use', categoryId: String(id) });
      return E.right(removed === 'removed' ? O.some(undefined) : O.none);
    });
