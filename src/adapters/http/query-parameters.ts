// The query string as an object of parameters, parsed with node:querystring rather than
// Koa's `ctx.query`. Koa 3 builds `ctx.query` from a URLSearchParams and defines each key
// with Object.defineProperty: measured inside the server, that cost about 13 µs per list
// request, more than the io-ts decoding of the result (docs/benchmarks.md). The result is
// the same: `+` and percent-escapes decoded, a repeated parameter as an array of its values,
// and an object without a prototype, so `__proto__` or `constructor` are plain parameters.
import { type ParsedUrlQuery, parse } from 'node:querystring';
import type { Context } from 'koa';

/** The request's query parameters: a string per parameter, or an array of strings for a repeated one. */
export const queryParameters = (ctx: Context): ParsedUrlQuery => parse(ctx.querystring);
