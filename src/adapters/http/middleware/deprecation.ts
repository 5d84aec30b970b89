// The signals of the deprecated GET /pets/{petId}: Deprecation (RFC 9745), Sunset (RFC 8594)
// and Link to the successor and to the migration notes, on every one of its responses.
import type { Context, Middleware } from 'koa';
import { mountPrefix } from '../request/request-path.js';

/** When the operation was deprecated: 2026-11-22, the first release of this service, with interface 1.0.0. */
export const GET_PET_DEPRECATED_AT = new Date('2026-11-22T00:00:00Z');
/** When it goes away, as the interface states. */
export const GET_PET_SUNSET_AT = new Date('2030-12-05T00:00:00Z');
/** Where the migration notes are served (outside the API prefix, with no key needed), below any mount prefix. */
export const DEPRECATIONS_PATH = '/docs/deprecations';

// Computed once: they are the same on every answer.
const DEPRECATION = `@${Math.floor(GET_PET_DEPRECATED_AT.getTime() / 1000)}`;
const SUNSET = GET_PET_SUNSET_AT.toUTCString();

/** The headers of a deprecated answer: `mountPrefix` is where the app is mounted ('' at the root). */
export const deprecationHeaders = (successorPath: string, mountPrefix = ''): Record<string, string> => ({
  Deprecation: DEPRECATION,
  Sunset: SUNSET,
  Link: `<${mountPrefix}${successorPath}>; rel="successor-version", <${mountPrefix}${DEPRECATIONS_PATH}>; rel="deprecation"; type="text/markdown"`,
});

// An app is served from the root or mounted under one prefix (rarely a few): the headers are
// built once per prefix. The bound keeps a client from growing the cache, whatever it sends.
const MAX_CACHED_PREFIXES = 8;

// Where markDeprecated notes the operation, for the request's log line.
const DEPRECATED_OPERATION = 'deprecatedOperation';

/**
 * Sets the deprecation headers first, so that every answer of the route carries them, errors
 * included, and notes `operation` for the request's log line (`deprecated`), so that operators
 * see who still calls it. `successorPath` is the operation that replaces the route (`/v1/pets`
 * for `/v1/pets/:petId`), below the prefix the app is mounted under, if any.
 */
export const markDeprecated = (operation: string, successorPath: string): Middleware => {
  const byPrefix = new Map<string, ReadonlyArray<readonly [name: string, value: string]>>();
  // Not async: it only sets headers and hands on, so it returns next()'s promise as it is
  // rather than wrapping it in one more.
  return function markDeprecated(ctx, next) {
    const prefix = mountPrefix(ctx);
    let headers = byPrefix.get(prefix);
    if (headers === undefined) {
      headers = Object.entries(deprecationHeaders(successorPath, prefix));
      if (byPrefix.size < MAX_CACHED_PREFIXES) byPrefix.set(prefix, headers);
    }
    // One set per header: Koa 3's set of an object takes Object.entries of it, through V8's
    // runtime, on every call (docs/decisions/0004-koa-request-response-over-ctx-aliases.md).
    for (const [name, value] of headers) ctx.response.set(name, value);
    ctx.state[DEPRECATED_OPERATION] = operation;
    return next();
  };
};

/** The deprecated operation the request called, as markDeprecated noted it, if any. */
export const deprecatedOperationOf = (ctx: Context): string | undefined => ctx.state[DEPRECATED_OPERATION] as string | undefined;
