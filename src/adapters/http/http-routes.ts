// Every route of the app in one table, declared on @koa/router: path, method, and the
// middleware that answer it, in order. 405 with Allow, and OPTIONS, are the router's own
// (allowedMethods, mounted in create-http-app.ts); a path no route has falls through to 404.
import type { Router, RouterMiddleware } from '@koa/router';
import compose from 'koa-compose';
import { API_CONVENTIONS_PATH, API_REFERENCE_PATH, type ApiReferenceHandlers } from './handlers/api-reference.js';
import { DEPRECATIONS_PATH, markDeprecated } from './middleware/deprecation.js';
import type { HttpMetrics } from './middleware/http-metrics.js';
import { readIdempotencyKey } from './request/idempotency-key-header.js';
import { readCategoryId } from './request/category-id-path.js';
import { readPetId } from './request/pet-id-path.js';
import { requireScope } from './middleware/require-scope.js';
import type { OperatorHandlers } from './handlers/operator-handlers.js';
import type { OrderHandlers } from './handlers/order-handlers.js';
import type { CategoryHandlers } from './handlers/category-handlers.js';
import type { PetHandlers } from './handlers/pet-handlers.js';
import { readOrderId } from './request/order-id-path.js';
import { ERRORS_DOC_PATH } from './errors/send-error.js';

/** What the routes are made of: the handlers, and the middleware that guard the operations. */
export interface RouteParts {
  readonly apiBasePath: string;
  readonly openApiPath: string;
  readonly pets: PetHandlers;
  /** The store's operations (interface 1.3): orders and the inventory; not served when absent. */
  readonly orders?: OrderHandlers | undefined;
  /** Absent when the app was made without the categories' use cases: /categories is then not served. */
  readonly categories?: CategoryHandlers | undefined;
  readonly operator: OperatorHandlers;
  readonly reference: ApiReferenceHandlers;
  /** Absent when metrics are off: /metrics is then not served. */
  readonly metrics: HttpMetrics | undefined;
  /** Before every operation: the limit of failed authentications, authentication, then the per-key rate limit (each limit when there is one); each route adds the scope it needs after it. */
  readonly guard: readonly RouterMiddleware[];
  /** Before /metrics when it needs a key; empty when it is open. */
  readonly metricsGuard: readonly RouterMiddleware[];
  /** The reading of a JSON body, for the operations that take one. */
  readonly jsonBody: readonly RouterMiddleware[];
  /** The reading of a JSON merge patch body (application/merge-patch+json or application/json). */
  readonly mergePatchBody: readonly RouterMiddleware[];
}

/**
 * A route's middleware, in order, composed once with koa-compose. @koa/router composes the
 * middleware of the route it matched again on every request, and koa-compose's flatten costs
 * one `Array.prototype.concat` per middleware; handed one function, the router flattens two
 * entries (its own step and this one), as for a route with a single handler. The calls, their
 * order and the errors are the same (docs/decisions/0013-route-middleware-composed-once.md).
 */
const inOrder = (...middleware: RouterMiddleware[]): RouterMiddleware => compose(middleware);

/** Declares the app's routes on `router`, each with a name (for `router.url(name, params)`). */
export function declareRoutes(router: Router, parts: RouteParts): void {
  const { apiBasePath, pets, operator, reference, metrics, guard, metricsGuard, jsonBody, mergePatchBody } = parts;

  router.get('liveness', '/healthz', operator.liveness);
  router.get('readiness', '/readyz', operator.readiness);
  if (metrics !== undefined) router.get('metrics', '/metrics', inOrder(...metricsGuard, metrics.scrape));

  router.get('openApiDocument', parts.openApiPath, reference.openApi);
  router.get('apiReference', API_REFERENCE_PATH, reference.page);
  router.get('apiReferenceScript', `${API_REFERENCE_PATH}/init.js`, reference.initScript);
  router.get('apiReferenceAsset', `${API_REFERENCE_PATH}/assets/:file`, reference.asset);
  router.get('errorCodes', ERRORS_DOC_PATH, reference.errors);
  router.get('deprecations', DEPRECATIONS_PATH, reference.deprecations);
  router.get('apiConventions', API_CONVENTIONS_PATH, reference.conventions);

  router.get('listPets', `${apiBasePath}/pets`, inOrder(...guard, requireScope('pets:read'), pets.listPets));
  router.post(
    'createPet',
    `${apiBasePath}/pets`,
    inOrder(...guard, requireScope('pets:write'), readIdempotencyKey, ...jsonBody, pets.createPet),
  );
  // Deprecated by the interface (removal on 2030-12-05): every answer carries the signals, even a 401.
  router.get(
    'getPet',
    `${apiBasePath}/pets/:petId`,
    inOrder(markDeprecated('getPet', `${apiBasePath}/pets`), ...guard, requireScope('pets:read'), readPetId, pets.getPet),
  );
  // Interface 1.1; not deprecated: no deprecation signals. The id is checked before the body is read.
  router.patch(
    'updatePet',
    `${apiBasePath}/pets/:petId`,
    inOrder(...guard, requireScope('pets:write'), readPetId, ...mergePatchBody, pets.updatePet),
  );
  router.delete('deletePet', `${apiBasePath}/pets/:petId`, inOrder(...guard, requireScope('pets:write'), readPetId, pets.deletePet));
  if (parts.categories !== undefined) declareCategoryRoutes(router, parts, parts.categories);
  if (parts.orders !== undefined) declareStoreRoutes(router, parts, parts.orders);
}

/** The routes of the store (interface 1.3): orders and the inventory, each with its scope. */
function declareStoreRoutes(router: Router, { apiBasePath, guard, jsonBody, mergePatchBody }: RouteParts, orders: OrderHandlers): void {
  router.get('listOrders', `${apiBasePath}/orders`, inOrder(...guard, requireScope('orders:read'), orders.listOrders));
  router.post(
    'placeOrder',
    `${apiBasePath}/orders`,
    inOrder(...guard, requireScope('orders:write'), readIdempotencyKey, ...jsonBody, orders.placeOrder),
  );
  router.get('getOrder', `${apiBasePath}/orders/:orderId`, inOrder(...guard, requireScope('orders:read'), readOrderId, orders.getOrder));
  router.patch(
    'changeOrder',
    `${apiBasePath}/orders/:orderId`,
    inOrder(...guard, requireScope('orders:write'), readOrderId, ...mergePatchBody, orders.changeOrder),
  );
  router.get('getInventory', `${apiBasePath}/store/inventory`, inOrder(...guard, requireScope('store:read'), orders.getInventory));
}

/** The routes of /categories (interface 1.3), guarded as the pets' are, each with its scope. */
function declareCategoryRoutes(router: Router, { apiBasePath, guard, jsonBody, mergePatchBody }: RouteParts, categories: CategoryHandlers) {
  const one = `${apiBasePath}/categories/:categoryId`;
  const read = requireScope('categories:read');
  const write = requireScope('categories:write');
  router.get('listCategories', `${apiBasePath}/categories`, inOrder(...guard, read, categories.listCategories));
  router.post('createCategory', `${apiBasePath}/categories`, inOrder(...guard, write, ...jsonBody, categories.createCategory));
  router.get('getCategory', one, inOrder(...guard, read, readCategoryId, categories.getCategory));
  router.patch('updateCategory', one, inOrder(...guard, write, readCategoryId, ...mergePatchBody, categories.renameCategory));
  router.delete('deleteCategory', one, inOrder(...guard, write, readCategoryId, categories.deleteCategory));
}
