// The JSON body of an operation, read by koa-bodyparser mounted on the route, and every way
// reading it can fail turned into the answer a client can act on, here and only here:
// no body (400 missing_body), not JSON (415), too large (413), not UTF-8 (400 invalid_utf8),
// not parseable (400 malformed_json), cut off or corrupt (400 bad_request).
import type { Context, Middleware, Next } from 'koa';
import bodyParser from 'koa-bodyparser';
import { type BodyBytesWatch, watchBodyBytes } from './body-bytes-watch.js';
import { type ApiError, apiError } from '../errors/error-catalogue.js';
import { thrownToApiError } from '../errors/error-middleware.js';
import { sendError } from '../errors/send-error.js';

// Where the route's middleware leave what the next one needs: the watch, and the parser's error.
const WATCH = 'jsonBodyWatch';
const PARSE_ERROR = 'jsonBodyParseError';

const MISSING_BODY = apiError('missing_body', 'The request needs a JSON body');
/** The media types of an ordinary JSON body. */
export const JSON_MEDIA_TYPES: readonly string[] = ['application/json'];
/** The media types of a JSON merge patch (RFC 7396): its own, and plain JSON, which many clients send. */
export const MERGE_PATCH_MEDIA_TYPES: readonly string[] = ['application/merge-patch+json', 'application/json'];

/** The 415 of a body of another media type than `types`. */
const notJson = (types: readonly string[]): ApiError =>
  apiError(
    'unsupported_media_type',
    `The request body must be JSON, sent with ${types.map((type) => `"Content-Type: ${type}"`).join(' or ')}`,
  );
const NOT_UTF8 = apiError('invalid_utf8', 'The request body is not valid UTF-8: JSON must be sent in UTF-8');
const CUT_OFF = apiError('bad_request', 'request aborted');

/** The answer to a body that koa-bodyparser could not read or parse. */
function parseFailure(err: unknown, limitBytes: number): ApiError {
  const status = (err as { status?: number }).status;
  if (status === 413) return apiError('payload_too_large', `The request body must not exceed ${limitBytes} bytes`);
  if (status === 415) {
    return apiError('unsupported_media_type', 'The request body uses a Content-Encoding or charset the service does not support');
  }
  if (status === 400 && err instanceof SyntaxError) return apiError('malformed_json', `The request body is not valid JSON: ${err.message}`);
  return thrownToApiError(err) ?? apiError('bad_request', 'The request body could not be read');
}

/**
 * Before the parser: a body must be there and be JSON. Starts the watch of its bytes, and
 * answers a client that cut its upload off without waiting for the parser, which may never
 * finish then (a decompressing stream is not told that its source went away).
 */
function expectJsonBody(limitBytes: number, types: readonly string[]): Middleware {
  const notAccepted = notJson(types);
  return async function expectJsonBody(ctx: Context, next: Next): Promise<void> {
    const type = ctx.request.is(types as string[]);
    // No body at all, or one declared empty, whatever its type: the client forgot the pet.
    if (type === null || ctx.request.length === 0) return sendError(ctx, MISSING_BODY);
    if (type === false) return sendError(ctx, notAccepted);
    // Content codings are case-insensitive (RFC 9110 §8.4.1); the parser's inflation compares exactly.
    const coding = (ctx.req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    ctx.req.headers['content-encoding'] = coding;
    const watch = watchBodyBytes(ctx.req, coding, limitBytes);
    ctx.state[WATCH] = watch;
    const cutOff = watch.cutOff.then(() => 'cut-off' as const);
    if ((await Promise.race([next(), cutOff])) === 'cut-off') sendError(ctx, CUT_OFF);
  };
}

/** After the parser: the body it read, or the one answer for what went wrong. */
function acceptJsonBody(limitBytes: number): Middleware {
  return async function acceptJsonBody(ctx: Context, next: Next): Promise<void> {
    const watch = ctx.state[WATCH] as BodyBytesWatch;
    // A bad byte explains a parse error too (it may sit outside any string), so it is named first.
    if ((await watch.utf8()) === 'not-utf8') return sendError(ctx, NOT_UTF8);
    if (PARSE_ERROR in ctx.state) return sendError(ctx, parseFailure(ctx.state[PARSE_ERROR], limitBytes));
    // Sent chunked with nothing in it: no pet either.
    if (ctx.request.rawBody === '') return sendError(ctx, MISSING_BODY);
    // The client went away while the body was checked: nothing is created for nobody.
    if (!ctx.req.complete) return sendError(ctx, CUT_OFF);
    await next();
  };
}

/**
 * The middleware of a route that takes a JSON body of at most `limitBytes` decoded bytes, of
 * one of the media `types`, in order: the checks before parsing, koa-bodyparser, the checks
 * after. The handler that follows finds the parsed value in `ctx.request.body`.
 */
export function jsonBody(limitBytes: number, types: readonly string[] = JSON_MEDIA_TYPES): Middleware[] {
  const parse = bodyParser({
    enableTypes: ['json'],
    extendTypes: { json: [...types] },
    jsonLimit: String(limitBytes),
    // Any JSON value is parsed; the codec then says "must be a JSON object" with the field path.
    strict: false,
    // `__proto__` stays an ordinary own key (JSON.parse never pollutes); the codec refuses it as unknown.
    onProtoPoisoning: 'ignore',
    // The parser's documented hook for its errors: kept for acceptJsonBody, which answers them all.
    onerror: (err: Error, ctx: Context) => {
      ctx.state[PARSE_ERROR] = err;
    },
  } as bodyParser.Options);
  return [expectJsonBody(limitBytes, types), parse, acceptJsonBody(limitBytes)];
}
