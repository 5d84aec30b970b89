// The Koa application: request observation and CORS outermost, then error handling, then the
// routes of @koa/router (operator endpoints, the API reference, the /v1 operations) and its
// allowedMethods (405 with Allow, OPTIONS).
import type Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import type { Registry } from 'prom-client';
import type { Logger } from 'pino';
import type { CredentialVerifier, RateLimit, RateLimitStore, ReadinessCheck, ServiceState } from '../../domain/index.js';
import { API_REFERENCE_PATH, ApiReferenceHandlers } from './handlers/api-reference.js';
import { AUTH_FAILURES_POLICY, limitAuthFailures } from './middleware/auth-failure-limit.js';
import { authenticate } from './middleware/authenticate.js';
import { cors } from './middleware/cors.js';
import { errorMiddleware } from './errors/error-middleware.js';
import { createHttpMetrics } from './middleware/http-metrics.js';
import { createHttpRouter } from './http-router.js';
import { declareRoutes } from './http-routes.js';
import { jsonBody, MERGE_PATCH_MEDIA_TYPES } from './body/json-body.js';
import { observeRequests } from './middleware/observe-requests.js';
import { type MetricsAccess, OperatorHandlers } from './handlers/operator-handlers.js';
import { OrderHandlers, type StoreUseCases } from './handlers/order-handlers.js';
import { CategoryHandlers, type CategoryUseCases } from './handlers/category-handlers.js';
import { PetHandlers, type PetUseCases } from './handlers/pet-handlers.js';
import { PER_KEY_POLICY, rateLimitPerCaller } from './middleware/rate-limit.js';

/** The largest request body accepted, in bytes; a valid NewPet is far smaller. */
export const DEFAULT_BODY_LIMIT_BYTES = 16 * 1024;

/** Where the operations of the interface are served: its version, as the interface's base addresses end. */
export const API_BASE_PATH = '/v1';
/** Where the OpenAPI document is served as JSON, with no key needed. */
export const OPENAPI_PATH = `${API_BASE_PATH}/openapi.json`;

/** What {@link createHttpApp} needs: the use cases, the key verifier, a logger, and optional state, options and router. */
export interface HttpAppDependencies {
  readonly useCases: PetUseCases;
  /** The store's use cases (interface 1.3): orders and the inventory. Without them, those operations are not served. */
  readonly storeUseCases?: StoreUseCases;
  /** The categories' use cases (interface 1.3); without them, /v1/categories is not served. */
  readonly categoryUseCases?: CategoryUseCases;
  readonly credentialVerifier: CredentialVerifier;
  readonly logger: Logger;
  /** Whether the storage answers, for /readyz; always ready when absent. */
  readonly readiness?: ReadinessCheck;
  /** Whether the credentials can be verified (the JWT keys were fetched once), for /readyz; always ready when absent. */
  readonly credentialsReadiness?: ReadinessCheck;
  /** Set `draining` to make /readyz answer 503 while the server stops. */
  readonly state?: ServiceState;
  /**
   * Where the rate limits keep their counts: a MemoryRateLimitStore (each process counts alone)
   * or a RedisRateLimitStore (instances share them). Needed only when `options` sets a limit.
   */
  readonly rateLimitStore?: RateLimitStore;
  readonly options?: HttpAppOptions;
  /** The prom-client registry /metrics serves, so that other parts of the service can add theirs; a new one when absent. */
  readonly metricsRegistry?: Registry;
  /**
   * The @koa/router to declare the service's routes on, from {@link createHttpRouter}; one is
   * made when absent. Routes you add to it are served by the app beside the service's, behind
   * its request ids, logs, metrics and JSON errors.
   */
  readonly router?: Router;
  /** The outermost middleware when tracing: a span per request (see the composition root's tracing). */
  readonly requestSpans?: Middleware;
}

/** Settings of the HTTP adapter; every one may be left out. */
export interface HttpAppOptions {
  readonly bodyLimitBytes?: number;
  /** Origins allowed by CORS (`*` for any); CORS is off when absent or empty. */
  readonly corsOrigins?: readonly string[];
  /** Requests per window and API key; no limit when absent. */
  readonly rateLimit?: RateLimit;
  /**
   * Failed authentications (missing, malformed, repeated or unknown key) per window and client address;
   * past it, the address is answered 429 until its window ends. No limit when absent.
   */
  readonly authFailureLimit?: RateLimit;
  /** Who may read /metrics (default: open). */
  readonly metrics?: MetricsAccess;
}

/**
 * The HTTP adapter as a Koa app: the /v1 operations, /healthz, /readyz, /metrics, the API
 * reference (/docs) and the OpenAPI document, every error as the JSON Error body. Serve its
 * `callback()` with {@link startHttpServer}, or mount it in another Koa app under a prefix
 * (koa-mount): its links keep the prefix. Reads docs/ of the package at once (throws when missing).
 */
export function createHttpApp(deps: HttpAppDependencies): Koa {
  const options = deps.options ?? {};
  const app = new Koa();
  // Every error is answered by errorMiddleware; Koa must not print one (with its stack) as well.
  app.silent = true;
  const metrics = options.metrics === 'off' ? undefined : createHttpMetrics(deps.metricsRegistry);
  const { authFailureLimit, rateLimit } = options;
  const store = deps.rateLimitStore;
  const limiterOf = (policy: string, limit: RateLimit) => {
    if (store === undefined)
      throw new TypeError('createHttpApp: a rate limit needs a rateLimitStore (MemoryRateLimitStore counts in this process)');
    return store.counter(policy, limit, () => metrics?.rateLimitStoreFailed(policy));
  };
  // Refused addresses first, then authentication (before the body is read), then the caller's budget.
  const authenticated = [
    ...(authFailureLimit === undefined ? [] : [limitAuthFailures(authFailureLimit, limiterOf(AUTH_FAILURES_POLICY, authFailureLimit))]),
    authenticate(deps.credentialVerifier),
  ];
  const perCaller = rateLimit === undefined ? [] : [rateLimitPerCaller(rateLimit, limiterOf(PER_KEY_POLICY, rateLimit))];
  const router = deps.router ?? createHttpRouter();

  declareRoutes(router, {
    apiBasePath: API_BASE_PATH,
    openApiPath: OPENAPI_PATH,
    pets: new PetHandlers(deps.useCases),
    categories: deps.categoryUseCases === undefined ? undefined : new CategoryHandlers(deps.categoryUseCases),
    orders: deps.storeUseCases === undefined ? undefined : new OrderHandlers(deps.storeUseCases),
    operator: new OperatorHandlers(
      deps.state ?? { draining: false },
      deps.readiness ?? (async () => {}),
      deps.logger,
      deps.credentialsReadiness,
    ),
    reference: new ApiReferenceHandlers(API_BASE_PATH, OPENAPI_PATH),
    metrics,
    guard: [...authenticated, ...perCaller],
    metricsGuard: options.metrics === 'key' ? authenticated : [],
    jsonBody: jsonBody(options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES),
    mergePatchBody: jsonBody(options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES, MERGE_PATCH_MEDIA_TYPES),
  });

  if (deps.requestSpans !== undefined) app.use(deps.requestSpans);
  app.use(observeRequests(deps.logger, metrics));
  if (options.corsOrigins !== undefined && options.corsOrigins.length > 0) app.use(cors(options.corsOrigins));
  app.use(errorMiddleware(deps.logger));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

export { API_REFERENCE_PATH, createHttpRouter };
