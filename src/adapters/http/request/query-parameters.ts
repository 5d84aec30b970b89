// The query string as an object of parameters, read with the WHATWG URLSearchParams into a
// plain object. Not Koa's `ctx.query`: Koa 3 defines each key with Object.defineProperty, which
// costs every list request. Not node:querystring either: it stores each parameter into an
// object without a prototype, and inside the server (not in a loop on its own) V8 then misses
// its inline cache on every such store (docs/decisions/0005-query-string-with-urlsearchparams.md).
// The result is what node:querystring gave: `+` and percent-escapes decoded (a malformed
// escape kept as sent), a repeated parameter as an array of its values in order.
import type { ParsedUrlQuery } from 'node:querystring';

// On a plain object this name is the prototype's accessor, not a key: storing a parameter under
// it would set the object's prototype (or do nothing). No operation has such a parameter, and
// unknown parameters are ignored, so it is left out.
const PROTOTYPE = '__proto__';

/**
 * The parameters of a query string (without its `?`) as own properties: a string per parameter, or an array of
 * strings for a repeated one; a parameter named `__proto__` is left out. Every parameter is
 * kept (node:querystring stopped at 1,000 unless told otherwise); the header limit (16 KiB)
 * bounds the work, which is linear in the parameters, repeated ones included.
 */
export function queryParameters(querystring: string): ParsedUrlQuery {
  const parameters: ParsedUrlQuery = {};
  for (const [name, value] of new URLSearchParams(querystring)) {
    if (name === PROTOTYPE) continue;
    // Own properties only: `constructor` or `toString` are parameters like any other.
    const seen = Object.hasOwn(parameters, name) ? parameters[name] : undefined;
    if (seen === undefined) parameters[name] = value;
    else if (typeof seen === 'string') parameters[name] = [seen, value];
    else seen.push(value);
  }
  return parameters;
}
