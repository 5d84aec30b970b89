// Endpoints for operators, outside /v1 and never rate limited: liveness, readiness and metrics.
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { describeFault } from '../../logger.js';
import { apiError } from './error-catalogue.js';
import type { HttpMetrics } from './http-metrics.js';
import { getRoute, type Route } from './route-table.js';
import { sendError } from './send-error.js';
import type { ReadinessCheck, ServiceState } from '../../domain/index.js';

/** Who may read /metrics: anyone who reaches the port, only holders of an API key, or nobody. */
export type MetricsAccess = 'open' | 'key' | 'off';

export interface OperationsDependencies {
  readonly state: ServiceState;
  readonly readiness: ReadinessCheck;
  readonly metrics: HttpMetrics | undefined;
  readonly metricsGuard: Middleware | undefined;
  readonly logger: Logger;
}

export function operationsRoutes(deps: OperationsDependencies): Route[] {
  // Alive: the process answers HTTP. Nothing else is checked, so a busy database never gets it restarted.
  const liveness = getRoute('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  // Ready: not stopping, and the database answers. A load balancer stops sending traffic on 503.
  const readiness = getRoute('/readyz', async (ctx) => {
    if (deps.state.draining) {
      return sendError(ctx, apiError('service_unavailable', 'The server is stopping', { headers: { 'Retry-After': '5' } }));
    }
    try {
      await deps.readiness();
    } catch (fault) {
      deps.logger.warn({ fault: describeFault(fault) }, 'not ready: the database does not answer');
      return sendError(ctx, apiError('service_unavailable', 'The database does not answer', { headers: { 'Retry-After': '5' } }));
    }
    ctx.body = { status: 'ready' };
  });

  const { metrics, metricsGuard } = deps;
  if (metrics === undefined) return [liveness, readiness];
  const scrape: Middleware = async (ctx) => {
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  };
  return [liveness, readiness, getRoute('/metrics', ...(metricsGuard === undefined ? [] : [metricsGuard]), scrape)];
}
