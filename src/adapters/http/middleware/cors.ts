// CORS with @koa/cors, off unless origins are configured. Browsers may then read the headers
// the API communicates with (paging, creation, deprecation, rate limits, request id).
import koaCors from '@koa/cors';
import type { Middleware } from 'koa';

export const CORS_EXPOSED_HEADERS = [
  'Link',
  'Location',
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
    allowMethods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id', 'Accept'],
    exposeHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
  });
}
