// Prometheus metrics with prom-client: requests by route and status, latency, process metrics,
// and the rate-limit decisions Redis could not make.
// Each app has its own registry, so several apps in one process (tests, embedding) never clash.
import type { Context } from 'koa';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

export interface HttpMetrics {
  readonly registry: Registry;
  observe(method: string, route: string, status: number, seconds: number): void;
  /** Counts a decision of the rate limit `policy` that Redis could not make, taken by the per-process insurance limit. */
  rateLimitStoreFailed(policy: string): void;
  /** The handler of GET /metrics: the registry in Prometheus' text format. */
  readonly scrape: (ctx: Context) => Promise<void>;
}

/** The HTTP metrics, in `registry` (a new one by default) beside the process metrics. */
export function createHttpMetrics(registry: Registry = new Registry()): HttpMetrics {
  collectDefaultMetrics({ register: registry, prefix: 'petstore_' });
  const requests = new Counter({
    name: 'petstore_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'petstore_http_request_duration_seconds',
    help: 'Time from the request reaching the app to its answer, by method and route template',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const rateLimitStoreFailures = new Counter({
    name: 'petstore_rate_limit_store_failures_total',
    help: 'Rate-limit decisions that Redis could not make (not connected, or no answer in time), taken by the per-process insurance limit instead, by policy',
    labelNames: ['policy'] as const,
    registers: [registry],
  });
  return {
    registry,
    // Labels given per call rather than through children bound once (`labels(…)`): prom-client 15
    // hashes and checks the labels on every call of a child too, so children would cost the same.
    observe(method, route, status, seconds) {
      requests.inc({ method, route, status: String(status) });
      duration.observe({ method, route }, seconds);
    },
    rateLimitStoreFailed: (policy) => rateLimitStoreFailures.inc({ policy }),
    scrape: async (ctx) => {
      ctx.response.type = registry.contentType;
      ctx.response.body = await registry.metrics();
    },
  };
}
