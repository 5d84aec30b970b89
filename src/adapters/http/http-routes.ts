// Every route of the app in one table, declared on @koa/router: path, method, and the
// middleware that answer it, in order. 405 with Allow, and OPTIONS, are the router's own
// (allowedMethods, mounted in create-http-app.ts); a path no route has falls through to 404.
import type { Router, RouterMiddleware } from '@koa/router';
import { API_REFERENCE_PATH, type ApiReferenceHandlers } from './api-reference.js';
import { DEPRECATIONS_PATH, markDeprecated } from './deprecation.js';
import type { HttpMetrics } from './http-metrics.js';
import { readIdempotencyKey } from './idempotency-key-header.js';
import type { OperatorHandlers } from './operator-handlers.js';
import type { PetHandlers } from './pet-handlers.js';
import { ERRORS_DOC_PATH } from './send-error.js';

/** What the routes are made of: the handlers, and the middleware that guard the operations. */
export interface RouteParts {
  readonly apiBasePath: string;
  readonly openApiPath: string;
  readonly pets: PetHandlers;
  readonly operator: OperatorHandlers;
  readonly reference: ApiReferenceHandlers;
  /** Absent when metrics are off: /metrics is then not served. */
  readonly metrics: HttpMetrics | undefined;
  /** Before every operation: the limit of failed authentications, authentication, then the per-key rate limit (each limit when there is one). */
  readonly guard: readonly RouterMiddleware[];
  /** Before /metrics when it needs a key; empty when it is open. */
  readonly metricsGuard: readonly RouterMiddleware[];
  /** The reading of a JSON body, for the operations that take one. */
  readonly jsonBody: readonly RouterMiddleware[];
}

/** Declares the app's routes on `router`, each with a name (for `router.url(name, params)`). */
export function declareRoutes(router: Router, parts: RouteParts): void {
  const { apiBasePath, pets, operator, reference, metrics, guard, metricsGuard, jsonBody } = parts;

  router.get('liveness', '/healthz', operator.liveness);
  router.get('readiness', '/readyz', operator.readiness);
  if (metrics !== undefined) router.get('metrics', '/metrics', ...metricsGuard, metrics.scrape);

  router.get('openApiDocument', parts.openApiPath, reference.openApi);
  router.get('apiReference', API_REFERENCE_PATH, reference.page);
  router.get('apiReferenceScript', `${API_REFERENCE_PATH}/init.js`, reference.initScript);
  router.get('apiReferenceAsset', `${API_REFERENCE_PATH}/assets/:file`, reference.asset);
  router.get('errorCodes', ERRORS_DOC_PATH, reference.errors);
  router.get('deprecations', DEPRECATIONS_PATH, reference.deprecations);

  router.get('listPets', `${apiBasePath}/pets`, ...guard, pets.listPets);
  router.post('createPet', `${apiBasePath}/pets`, ...guard, readIdempotencyKey, ...jsonBody, pets.createPet);
  // Deprecated by the interface (removal on 2030-12-05): every answer carries the signals, even a 401.
  router.get('getPet', `${apiBasePath}/pets/:petId`, markDeprecated('getPet', `${apiBasePath}/pets`), ...guard, pets.getPet);
}
