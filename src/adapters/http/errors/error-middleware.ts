// The outermost middleware but request observation (and CORS): whatever goes wrong below it, and whatever Koa or the body
// parser throws, leaves the service as the JSON Error body. Koa's own ctx.onerror would
// answer in text/plain and drop the headers, so no error is allowed to reach it.
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { describeFault } from '../../../domain/fault-description.js';
import { StorageUnavailableError } from '../../../domain/index.js';
import { type ApiError, apiError } from './error-catalogue.js';
import { requestPath } from '../request/request-path.js';
import { sendError } from './send-error.js';

const CODE_BY_STATUS: Readonly<Record<number, Parameters<typeof apiError>[0]>> = {
  400: 'bad_request',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  431: 'headers_too_large',
};

/** Seconds a client is asked to wait (Retry-After) before it retries after a 503. */
export const STORAGE_RETRY_AFTER_SECONDS = 1;

const statusOf = (err: unknown): number | undefined => {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' && Number.isInteger(status) ? status : undefined;
};

/** A thrown client error (4xx from Koa or a library) as an ApiError; anything else is a fault. */
export function thrownToApiError(err: unknown): ApiError | undefined {
  const status = statusOf(err);
  if (status === undefined || status < 400 || status > 499) return undefined;
  const code = CODE_BY_STATUS[status] ?? 'client_error';
  const message = (err as { expose?: boolean }).expose === true ? String((err as Error).message) : 'Bad request';
  return apiError(code, message, { status });
}

export const errorMiddleware = (logger: Logger): Middleware =>
  async function errorMiddleware(ctx, next) {
    try {
      await next();
      // What no handler answered: no route has the path (404), or the router's allowedMethods
      // found it with other methods (405, its Allow header set).
      if (ctx.response.body == null) {
        if (ctx.response.status === 404) sendError(ctx, apiError('not_found', `No resource at ${ctx.request.method} ${requestPath(ctx)}`));
        else if (ctx.response.status === 405) {
          const allow = ctx.response.get('Allow');
          sendError(ctx, apiError('method_not_allowed', `${ctx.request.method} is not allowed on ${requestPath(ctx)}; use ${allow}`));
        }
      }
    } catch (err) {
      const clientError = thrownToApiError(err);
      if (clientError !== undefined) {
        sendError(ctx, clientError);
        return;
      }
      if (err instanceof StorageUnavailableError) {
        // Not a bug of the service: the store is away. The client may retry; the pool reconnects by itself.
        logger.warn(
          { fault: describeFault(err), requestId: ctx.state['requestId'] },
          `storage unavailable in ${ctx.request.method} ${requestPath(ctx)}`,
        );
        sendError(
          ctx,
          apiError('service_unavailable', 'The service cannot reach its storage right now; retry shortly', {
            headers: { 'Retry-After': String(STORAGE_RETRY_AFTER_SECONDS) },
          }),
        );
        return;
      }
      // A fault is logged by type and message only: never a stack trace, never request headers.
      logger.error(
        { fault: describeFault(err), requestId: ctx.state['requestId'] },
        `unexpected fault in ${ctx.request.method} ${requestPath(ctx)}`,
      );
      sendError(ctx, apiError('internal_error', 'The service met an unexpected fault; the request was not completed'));
    }
  };
