// The operations of the interface on categories (1.3), one named handler each: decode at the
// edge (io-ts), run the use case, respond; paged, conditional and tagged as the pets are.
import type { RouterMiddleware } from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import {
  type Category,
  type CategoryPage,
  CategoryPatch,
  categoryPreconditionFailed,
  type CreateCategory,
  DEFAULT_LIMIT,
  type DeleteCategory,
  type GetCategory,
  type ListCategories,
  type ListCategoriesRequest,
  NewCategory,
  type RenameCategory,
  type VersionedCategory,
} from '../../../domain/index.js';
import { categoryIdOf } from '../request/category-id-path.js';
import { encodeCategoryCursor } from '../request/page-cursor.js';
import { ListCategoriesQuery } from '../request/parameters.js';
import { decodedInput } from '../response/respond.js';
import { KeysetList } from './keyset-list.js';
import { announceCreated, VersionedResource } from './versioned-resource.js';

/** The use cases of the categories' operations. */
export interface CategoryUseCases {
  readonly listCategories: ListCategories;
  readonly createCategory: CreateCategory;
  readonly getCategory: GetCategory;
  readonly renameCategory: RenameCategory;
  readonly deleteCategory: DeleteCategory;
}

/** Categories, as their handlers answer them: with ETags and conditions as a pet's. */
const categories = new VersionedResource({
  idOf: categoryIdOf,
  resourceOf: (versioned: VersionedCategory) => versioned.category,
  preconditionFailed: categoryPreconditionFailed,
});

/** The category list, in id order: its cursor is the last category's id. */
const categoryList = new KeysetList({
  query: ListCategoriesQuery,
  requestOf: ({ limit = DEFAULT_LIMIT, cursor }): ListCategoriesRequest => ({
    limit,
    ...(cursor === undefined ? {} : { afterId: cursor }),
  }),
  itemsOf: (page: CategoryPage) => page.categories,
  cursorAfter: (_request, last) => encodeCategoryCursor(last.id),
});

/** The handlers of /v1/categories and /v1/categories/{categoryId}. Each is bound, to be given to a route as it is. */
export class CategoryHandlers {
  constructor(private readonly useCases: CategoryUseCases) {}

  /** GET /categories: one page, with `Link: rel="next"` when more follow. */
  readonly listCategories: RouterMiddleware = (ctx) => categoryList.answer(ctx, (request) => this.useCases.listCategories(request)());

  /** POST /categories: 201 with Location and ETag; 409 category_name_taken. */
  readonly createCategory: RouterMiddleware = async (ctx) => {
    const newCategory = decodedInput(ctx, 'body', NewCategory, ctx.request.body);
    if (newCategory === undefined) return;
    const created = await this.useCases.createCategory(newCategory)();
    if (E.isRight(created)) announceCreated(ctx, created.right.id, false);
    categories.respond(ctx, E.map((category: Category) => ({ category, version: 1 }))(created), 201);
  };

  /** GET /categories/{categoryId}: with its ETag; 412 and 304 as for a pet. */
  readonly getCategory: RouterMiddleware = (ctx) => categories.get(ctx, (id) => this.useCases.getCategory(id)());

  /** PATCH /categories/{categoryId}: a JSON merge patch of its name, conditional on If-Match and If-None-Match. */
  readonly renameCategory: RouterMiddleware = (ctx) =>
    categories.patch(ctx, CategoryPatch, (request) => this.useCases.renameCategory(request));

  /** DELETE /categories/{categoryId}: 204; 409 category_in_use while a pet is in it. */
  readonly deleteCategory: RouterMiddleware = (ctx) => categories.remove(ctx, (request) => this.useCases.deleteCategory(request));
}
