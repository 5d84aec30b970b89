// The outermost middleware: gives each request its id, and once it is answered writes one
// log line and one metrics observation (method, route template, status, duration, id, and
// the caller and the deprecated operation called, when there are).
// Never logs a header: the Authorization header and keys stay out of every line.
import type { RouterContext } from '@koa/router';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { deprecatedOperationOf } from './deprecation.js';
import type { HttpMetrics } from './http-metrics.js';
import { REQUEST_ID_HEADER, requestIdFor } from './request-id.js';

// Unmatched paths share one label, so that scanning random URLs cannot grow the metrics.
const UNMATCHED_ROUTE = '(unmatched)';

// Node's parser accepts a fixed list of methods and the routes are the router's templates, so
// the pairs are few; the bound only keeps an integrator's thousands of routes from being held.
const MAX_ROUTE_LOGGERS = 1024;

/**
 * The request lines of one method and route (and its deprecated operation, if any), as a pino
 * child logger: pino serialises a child's bindings once, when it is made, so these fields cost
 * nothing on each line. Children are made as pairs are first answered, at the logger's level.
 */
function routeLoggers(logger: Logger): (method: string, route: string, deprecated: string | undefined) => Logger {
  const children = new Map<string, Logger>();
  return (method, route, deprecated) => {
    const key = `${method} ${route} ${deprecated ?? ''}`;
    let child = children.get(key);
    if (child === undefined) {
      child = logger.child(deprecated === undefined ? { method, route } : { method, route, deprecated });
      if (children.size < MAX_ROUTE_LOGGERS) children.set(key, child);
    }
    return child;
  };
}

export const observeRequests = (logger: Logger, metrics: HttpMetrics | undefined): Middleware => {
  const loggerFor = routeLoggers(logger);
  return async function observeRequests(ctx, next) {
    const started = process.hrtime.bigint();
    const requestId = requestIdFor(ctx.request.get(REQUEST_ID_HEADER) || undefined);
    ctx.state['requestId'] = requestId;
    ctx.response.set(REQUEST_ID_HEADER, requestId);
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // The template of the route @koa/router ran (none for a 404, a 405 or an OPTIONS answer).
      const route = (ctx as RouterContext)._matchedRoute?.toString() ?? UNMATCHED_ROUTE;
      const { method } = ctx.request;
      const { status } = ctx.response;
      metrics?.observe(method, route, status, seconds);
      // The line's fields are gathered only when the line will be written (not at `warn`).
      if (logger.isLevelEnabled('info')) {
        const line: { requestId: string; status: number; durationMs: number; caller?: string } = {
          requestId,
          status,
          durationMs: Math.round(seconds * 1e6) / 1e3,
        };
        const caller = ctx.state['caller'] as { id: string } | undefined;
        if (caller !== undefined) line.caller = caller.id;
        loggerFor(method, route, deprecatedOperationOf(ctx)).info(line, 'request');
      }
    }
  };
};
