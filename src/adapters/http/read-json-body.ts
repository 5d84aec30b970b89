// Reads a JSON request body with koa-bodyparser and turns each way it can fail into the
// answer a client can act on: no body (400), not JSON (415), too large (413), not UTF-8 (400),
// not parseable (400).
import bodyParser from 'koa-bodyparser';
import * as E from 'fp-ts/lib/Either.js';
import type { Context } from 'koa';
import { type ApiError, apiError } from './error-catalogue.js';
import { thrownToApiError } from './error-middleware.js';
import { InvalidUtf8Error, utf8CheckedBody } from './utf8-checked-body.js';

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
      // koa-bodyparser reads `ctx.req`: it is given the body's bytes with their Content-Encoding
      // undone and checked to be UTF-8 on the way, as its decoder would replace bad bytes silently.
      await parse({ request: ctx.request, req: utf8CheckedBody(ctx.req) } as unknown as Context, noop);
    } catch (err) {
      if (err instanceof InvalidUtf8Error) {
        return E.left(apiError('invalid_utf8', 'The request body is not valid UTF-8: JSON must be sent in UTF-8'));
      }
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
