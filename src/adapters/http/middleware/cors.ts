// CORS with @koa/cors, off unless origins are configured. Browsers may then make every call of
// the API (changes and deletions, conditional ones included) and read the headers it
// communicates with (paging, creation, versions, deprecation, rate limits, request id).
import koaCors from '@koa/cors';
import type { Middleware } from 'koa';

export const CORS_EXPOSED_HEADERS = [
  'Link',
  'Location',
  'ETag',
  'Deprecation',
  'Sunset',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'Idempotent-Replayed',
  'X-Request-Id',
];

/** `origins` is a list of exact origins (`https://app.example`), or `['*']` for any origin. */
export function cors(origins: readonly string[]): Middleware {
  const any = origins.includes('*');
  return koaCors({
    // An origin outside the list gets no CORS headers at all, so the browser refuses the answer.
    origin: (ctx) => {
      const origin = ctx.request.get('Origin');
      return any ? '*' : origins.includes(origin) ? origin : '';
    },
    allowMethods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'If-Match', 'If-None-Match', 'X-Request-Id', 'Accept'],
    exposeHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
  });
}
