// The Koa application: request observation and CORS outermost, then error handling, then
// the operator endpoints, the API reference and the /v1 operations.
import Koa from 'koa';
import type { Logger } from 'pino';
import type { ApiKeyVerifier, ReadinessCheck, ServiceState } from '../../domain/index.js';
import { API_REFERENCE_PATH, apiReferenceRoutes } from './api-reference.js';
import { authenticate } from './authenticate.js';
import { cors } from './cors.js';
import { errorMiddleware } from './error-middleware.js';
import { createHttpMetrics } from './http-metrics.js';
import { observeRequests } from './observe-requests.js';
import { loadOpenApiDocument, servedOpenApiDocument } from './openapi-document.js';
import { type MetricsAccess, operationsRoutes } from './operations-routes.js';
import { type PetUseCases, petRoutes } from './pet-routes.js';
import { type RateLimit, rateLimitPerCaller } from './rate-limit.js';
import { jsonBodyReader } from './read-json-body.js';
import { mountPrefix } from './request-path.js';
import { getRoute, routeTable } from './route-table.js';

/** The largest request body accepted, in bytes; a valid NewPet is far smaller. */
export const DEFAULT_BODY_LIMIT_BYTES = 16 * 1024;

/** Where the operations of the interface are served: its version, as the interface's base addresses end. */
export const API_BASE_PATH = '/v1';
/** Where the OpenAPI document is served as JSON, with no key needed. */
export const OPENAPI_PATH = `${API_BASE_PATH}/openapi.json`;

/** What {@link createHttpApp} needs: the use cases, the key verifier, a logger, and optional state and options. */
export interface HttpAppDependencies {
  readonly useCases: PetUseCases;
  readonly apiKeyVerifier: ApiKeyVerifier;
  readonly logger: Logger;
  /** Whether the storage answers, for /readyz; always ready when absent. */
  readonly readiness?: ReadinessCheck;
  /** Set `draining` to make /readyz answer 503 while the server stops. */
  readonly state?: ServiceState;
  readonly options?: HttpAppOptions;
}

/** Settings of the HTTP adapter; every one may be left out. */
export interface HttpAppOptions {
  readonly bodyLimitBytes?: number;
  /** Origins allowed by CORS (`*` for any); CORS is off when absent or empty. */
  readonly corsOrigins?: readonly string[];
  /** Requests per window and API key; no limit when absent. */
  readonly rateLimit?: RateLimit;
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
  const metrics = options.metrics === 'off' ? undefined : createHttpMetrics();
  const authenticated = authenticate(deps.apiKeyVerifier);
  // Every operation: authenticate first (before the body is read), then count the caller's requests.
  const guard = options.rateLimit === undefined ? [authenticated] : [authenticated, rateLimitPerCaller(options.rateLimit)];

  const operations = operationsRoutes({
    state: deps.state ?? { draining: false },
    readiness: deps.readiness ?? (async () => {}),
    metrics,
    metricsGuard: options.metrics === 'key' ? authenticated : undefined,
    logger: deps.logger,
  });
  const reference = apiReferenceRoutes(OPENAPI_PATH);
  const openApiDocument = loadOpenApiDocument();
  const pets = petRoutes(
    deps.useCases,
    guard,
    jsonBodyReader(options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES),
    API_BASE_PATH,
    deps.logger,
  );
  // Discovery needs no key: a client learns the interface before it has one.
  const discovery = getRoute(OPENAPI_PATH, (ctx) => {
    const prefix = mountPrefix(ctx);
    ctx.body = servedOpenApiDocument(openApiDocument, `${prefix}${API_BASE_PATH}`, `${prefix}/`);
  });

  app.use(observeRequests(deps.logger, metrics));
  if (options.corsOrigins !== undefined && options.corsOrigins.length > 0) app.use(cors(options.corsOrigins));
  app.use(errorMiddleware(deps.logger));
  app.use(routeTable([...operations, discovery, ...reference, ...pets]));
  return app;
}

export { API_REFERENCE_PATH };
