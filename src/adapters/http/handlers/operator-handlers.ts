// Endpoints for operators, outside /v1 and never rate limited: liveness and readiness
// (/metrics is answered by the metrics themselves, http-metrics.ts).
import type { RouterMiddleware } from '@koa/router';
import type { Logger } from 'pino';
import { describeFault } from '../../../domain/fault-description.js';
import { apiError } from '../errors/error-catalogue.js';
import { sendError } from '../errors/send-error.js';
import { sendJson } from '../response/send-json.js';
import type { ReadinessCheck, ServiceState } from '../../../domain/index.js';

/** Who may read /metrics: anyone who reaches the port, only holders of an API key, or nobody. */
export type MetricsAccess = 'open' | 'key' | 'off';

const NOT_READY_RETRY_AFTER = { 'Retry-After': '5' };

/** The handlers of /healthz and /readyz. Each is bound, to be given to a route as it is. */
export class OperatorHandlers {
  constructor(
    private readonly state: ServiceState,
    private readonly ready: ReadinessCheck,
    private readonly logger: Logger,
    /** Whether tokens can be verified: the JWT keys were fetched once (fetching them now if not). */
    private readonly credentialsReady: ReadinessCheck = async () => {},
  ) {}

  /** Alive: the process answers HTTP. Nothing else is checked, so a busy database never gets it restarted. */
  readonly liveness: RouterMiddleware = (ctx) => {
    sendJson(ctx, 200, { status: 'ok' });
  };

  /** Ready: not stopping, the database answers, and tokens can be verified. A load balancer stops sending traffic on 503. */
  readonly readiness: RouterMiddleware = async (ctx) => {
    if (this.state.draining) {
      return sendError(ctx, apiError('service_unavailable', 'The server is stopping', { headers: NOT_READY_RETRY_AFTER }));
    }
    try {
      await this.ready();
    } catch (fault) {
      this.logger.warn({ fault: describeFault(fault) }, 'not ready: the database does not answer');
      return sendError(ctx, apiError('service_unavailable', 'The database does not answer', { headers: NOT_READY_RETRY_AFTER }));
    }
    try {
      await this.credentialsReady();
    } catch (fault) {
      this.logger.warn({ fault: describeFault(fault) }, "not ready: the identity provider's keys were never fetched");
      const message = "The identity provider's keys cannot be fetched";
      return sendError(ctx, apiError('service_unavailable', message, { headers: NOT_READY_RETRY_AFTER }));
    }
    sendJson(ctx, 200, { status: 'ready' });
  };
}
