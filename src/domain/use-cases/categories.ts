// Creating, reading and listing categories.
import * as E from 'fp-ts/lib/Either.js';
import type { TaskEither } from 'fp-ts/lib/TaskEither.js';
import type { Category, NewCategory, VersionedCategory } from '../category.js';
import { type CategoryNameTaken, type CategoryNotFound, categoryNotFound } from '../errors.js';
import type { Limit } from '../page.js';
import type { CategoryId } from '../pet.js';
import type { CategoryRepository } from '../ports/index.js';
import { pageOf } from './list-pets.js';

/** The use case that adds a category under a name no other category has. */
export type CreateCategory = (newCategory: NewCategory) => TaskEither<CategoryNameTaken, Category>;

/** Adds a category, or says its name is taken (compared case-insensitively). */
export const createCategory =
  (categories: CategoryRepository): CreateCategory =>
  ({ name }) =>
  async () => {
    const created = await categories.create(name);
    return created.kind === 'created' ? E.right(created.category) : E.left({ code: 'category_name_taken', name });
  };

/** The use case that fetches one category with its version (for an ETag). */
export type GetCategory = (id: CategoryId) => TaskEither<CategoryNotFound, VersionedCategory>;

/** Fetches a category and its version, or says that none has the id. */
export const getCategory =
  (categories: CategoryRepository): GetCategory =>
  (id) =>
  () =>
    categories.findVersioned(id).then(E.fromOption(() => categoryNotFound(id)));

/** Which page of categories to list. */
export interface ListCategoriesRequest {
  readonly limit: Limit;
  /** Resume strictly after this category. */
  readonly afterId?: CategoryId;
}

/** One page of categories, and whether more follow it. */
export interface CategoryPage {
  readonly categories: readonly Category[];
  readonly hasMore: boolean;
}

/** The use case that lists one page of categories. */
export type ListCategories = (request: ListCategoriesRequest) => TaskEither<never, CategoryPage>;

/** Lists categories in ascending id order, at most `limit`, after a given one. */
export const listCategories =
  (categories: CategoryRepository): ListCategories =>
  (request) =>
  async () => {
    const { items, hasMore } = pageOf(await categories.list({ ...request, limit: request.limit + 1 }), request.limit);
    return E.right({ categories: items, hasMore });
  };
