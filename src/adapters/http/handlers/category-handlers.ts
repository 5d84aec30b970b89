// The operations of the interface on categories (1.3), one named handler each: decode at the
// edge (io-ts), run the use case, respond; paged, conditional and tagged as the pets are.
import type { RouterMiddleware } from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import {
  type Category,
  type CategoryId,
  CategoryPatch,
  type CreateCategory,
  DEFAULT_LIMIT,
  type DeleteCategory,
  type DomainError,
  type GetCategory,
  type ListCategories,
  NewCategory,
  type RenameCategory,
  type VersionedCategory,
} from '../../../domain/index.js';
import { sendError } from '../errors/send-error.js';
import { encodeCategoryCursor } from '../request/page-cursor.js';
import { ListCategoriesQuery } from '../request/parameters.js';
import { categoryIdOf } from '../request/category-id-path.js';
import { conditionOf } from '../request/preconditions.js';
import { queryParameters } from '../request/query-parameters.js';
import { requestPath } from '../request/request-path.js';
import { invalidInput, respond } from '../response/respond.js';
import { answeredCondition, respondVersioned } from '../response/respond-versioned.js';

/** The use cases of the categories' operations. */
export interface CategoryUseCases {
  readonly listCategories: ListCategories;
  readonly createCategory: CreateCategory;
  readonly getCategory: GetCategory;
  readonly renameCategory: RenameCategory;
  readonly deleteCategory: DeleteCategory;
}

type Ctx = Parameters<RouterMiddleware>[0];

/** Runs `operation` on the path's category id (read by readCategoryId). */
const onPathCategory = async <A>(ctx: Ctx, operation: (id: CategoryId) => Promise<E.Either<DomainError, A>>) => {
  const id = categoryIdOf(ctx);
  return E.isLeft(id) ? id : operation(id.right);
};

/** Answers a category with its ETag (`"<id>-<version>"`, as a pet's), or the error. */
const respondCategory = (ctx: Ctx, result: E.Either<DomainError, VersionedCategory>, status = 200): void =>
  respondVersioned(ctx, result, (versioned) => versioned.category, status);

/** The handlers of /v1/categories and /v1/categories/{categoryId}. Each is bound, to be given to a route as it is. */
export class CategoryHandlers {
  constructor(private readonly useCases: CategoryUseCases) {}

  /** GET /categories: one page, with `Link: rel="next"` when more follow. */
  readonly listCategories: RouterMiddleware = async (ctx) => {
    const query = ListCategoriesQuery.decode(queryParameters(ctx.request.querystring));
    if (E.isLeft(query)) return sendError(ctx, invalidInput('query', query.left));
    const { limit = DEFAULT_LIMIT, cursor } = query.right;
    const page = await this.useCases.listCategories({ limit, ...(cursor === undefined ? {} : { afterId: cursor }) })();
    if (E.isRight(page) && page.right.hasMore) {
      const next = encodeCategoryCursor(page.right.categories[page.right.categories.length - 1]!.id);
      ctx.response.set('Link', `<${requestPath(ctx)}?limit=${limit}&cursor=${next}>; rel="next"`);
    }
    respond(ctx, E.map((p: { categories: unknown }) => p.categories)(page), 200);
  };

  /** POST /categories: 201 with Location and ETag; 409 category_name_taken. */
  readonly createCategory: RouterMiddleware = async (ctx) => {
    const newCategory = NewCategory.decode(ctx.request.body);
    if (E.isLeft(newCategory)) return sendError(ctx, invalidInput('body', newCategory.left));
    const created = await this.useCases.createCategory(newCategory.right)();
    if (E.isRight(created)) ctx.response.set('Location', `${requestPath(ctx).replace(/\/$/, '')}/${created.right.id}`);
    respondCategory(ctx, E.map((category: Category) => ({ category, version: 1 }))(created), 201);
  };

  /** GET /categories/{categoryId}: with its ETag; 412 and 304 as for a pet. */
  readonly getCategory: RouterMiddleware = async (ctx) => {
    const found = await onPathCategory(ctx, (id) => this.useCases.getCategory(id)());
    if (E.isRight(found)) {
      const { category, version } = found.right;
      const precondition = (): DomainError => ({
        code: 'category_precondition_failed',
        categoryId: String(category.id),
        failed: 'expected',
      });
      if (answeredCondition(ctx, category.id, version, precondition)) return;
    }
    respondCategory(ctx, found);
  };

  /** PATCH /categories/{categoryId}: a JSON merge patch of its name, conditional on If-Match and If-None-Match. */
  readonly renameCategory: RouterMiddleware = async (ctx) => {
    const patch = CategoryPatch.decode(ctx.request.body);
    if (E.isLeft(patch)) return sendError(ctx, invalidInput('body', patch.left));
    respondCategory(
      ctx,
      await onPathCategory(ctx, (id) => this.useCases.renameCategory({ id, patch: patch.right, ...conditionOf(ctx, id) })()),
    );
  };

  /** DELETE /categories/{categoryId}: 204; 409 category_in_use while a pet is in it. */
  readonly deleteCategory: RouterMiddleware = async (ctx) => {
    const deleted = await onPathCategory(ctx, (id) => this.useCases.deleteCategory({ id, ...conditionOf(ctx, id) })());
    if (E.isLeft(deleted)) return respond(ctx, deleted, 204);
    ctx.response.status = 204;
  };
}
