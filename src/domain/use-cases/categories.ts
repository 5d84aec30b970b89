// Creating, reading and listing categories.
import * as E from 'fp-ts/lib/Either.js';
import type { TaskEither } from 'fp-ts/lib/TaskEither.js';
import type { Category, NewCategory, VersionedCategory } from '../category.js';
import { type CategoryNameTaken, type CategoryNotFound, categoryNotFound } from '../errors.js';
import type { CategoryId } from '../pet.js';
import type { CategoryRepository } from '../ports/index.js';
import { fetchById } from './fetch-by-id.js';
import { type ListedPage, listPages, type PageRequest } from './list-page.js';

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
export const getCategory = (categories: CategoryRepository): GetCategory =>
  fetchById((id: CategoryId) => categories.findVersioned(id), categoryNotFound);

/** Which page of categories to list. */
export type ListCategoriesRequest = PageRequest<CategoryId>;

/** One page of categories, and whether more follow it. */
export type CategoryPage = ListedPage<'categories', Category>;

/** The use case that lists one page of categories. */
export type ListCategories = (request: ListCategoriesRequest) => TaskEither<never, CategoryPage>;

/** Lists categories in ascending id order, at most `limit`, after a given one. */
export const listCategories = (categories: CategoryRepository): ListCategories =>
  listPages('categories', (query: ListCategoriesRequest) => categories.list(query));
