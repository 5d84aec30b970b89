// Reads a JSON request body with koa-bodyparser and turns each way it can fail into the
// answer a client can act on: no body (400), not JSON (415), too large (413), not parseable (400).
import bodyParser from 'koa-bodyparser';
import * as E from 'fp-ts/lib/Either.js';
import type { Context } from 'koa';
import { type ApiError, apiError } from './error-catalogue.js';
import { thrownToApiError } from './error-middleware.js';

const noop = async (): Promise<void> => {};

export type ReadJsonBody = (ctx: Context) => Promise<E.Either<ApiError, unknown>>;

export function jsonBodyReader(limitBytes: number): ReadJsonBody {
  const parse = bodyParser({
    enableTypes: ['json'],
    jsonLimit: String(limitBytes),
    // Any JSON value is parsed; the codec then says "must be a JSON object" with the field path.
    strict: false,
    // `__proto__` stays an ordinary own key (JSON.parse never pollutes); the codec refuses it as unknown.
    onProtoPoisoning: 'ignore',
  } as bodyParser.Options);
  return async (ctx) => {
    const type = ctx.request.is('application/json');
    // No body at all, or one declared empty, whatever its type: the client forgot the pet.
    if (type === null || ctx.request.length === 0) return E.left(apiError('missing_body', 'The request needs a JSON body'));
    if (type === false) {
      return E.left(
        apiError('unsupported_media_type', 'The request body must be JSON, sent with "Content-Type: application/json"'),
      );
    }
    try {
      await parse(ctx, noop);
    } catch (err) {
      const status = (err as { status?: number }).status;
      if (status === 413) {
        return E.left(apiError('payload_too_large', `The request body must not exceed ${limitBytes} bytes`));
      }
      if (status === 415) {
        return E.left(apiError('unsupported_media_type', 'The request body uses a Content-Encoding or charset the service does not support'));
      }
      if (status === 400 && err instanceof SyntaxError) {
        return E.left(apiError('malformed_json', `The request body is not valid JSON: ${err.message}`));
      }
      return E.left(thrownToApiError(err) ?? apiError('bad_request', 'The request body could not be read'));
    }
    if (ctx.request.rawBody === '') return E.left(apiError('missing_body', 'The request needs a JSON body'));
    return E.right(ctx.request.body);
  };
}
