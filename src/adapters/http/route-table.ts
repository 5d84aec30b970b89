// The app's routes in one table: a request's path and method pick the handlers to run, and a
// known path asked with a method it does not have gets 405 with `Allow` (RFC 9110 §15.5.6) or,
// for OPTIONS, 204 with `Allow`. One lookup per request: a Map for the literal paths, a regular
// expression only for the few paths with a parameter. (It replaced @koa/router, which matched
// every route of every router on every request; see docs/benchmarks.md.)
import type { Context, Middleware } from 'koa';
import compose from 'koa-compose';
import { apiError } from './error-catalogue.js';
import { requestPath } from './request-path.js';
import { sendError } from './send-error.js';

/** One operation: a method, a path template (`/v1/pets/:petId`) and the middleware that answers it, in order. */
export interface Route {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly handlers: readonly Middleware[];
}

/** A GET route (HEAD is answered by it too). */
export const getRoute = (path: string, ...handlers: Middleware[]): Route => ({ method: 'GET', path, handlers });

/** The path parameters of the matched route, percent-decoded (`{ petId: '7' }`). */
export const routeParams = (ctx: Context): Readonly<Record<string, string>> =>
  (ctx.state['routeParams'] as Record<string, string> | undefined) ?? {};

/** The template of the route that answered (`/v1/pets/:petId`), or undefined when none did. */
export const matchedRoute = (ctx: Context): string | undefined => ctx.state['route'] as string | undefined;

interface PathEntry {
  readonly template: string;
  readonly handlers: Map<string, Middleware>;
  /** The Allow header of the path: its methods, HEAD with GET, and OPTIONS. */
  allow: string;
}

interface TemplatedEntry extends PathEntry {
  readonly pattern: RegExp;
  readonly names: readonly string[];
}

// What a route's last handler reaches if it calls next(): nothing; a route answers by itself.
const ROUTE_END = async (): Promise<void> => {};

const PARAMETER = /^:([A-Za-z_][A-Za-z0-9_]*)$/;

// A malformed escape is kept as sent: the handler's own validation then refuses it.
const decode = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

// `/v1/pets/` is `/v1/pets`: one trailing slash is not a different resource.
const withoutTrailingSlash = (path: string): string => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);

/** The Koa middleware serving `routes`; a path it does not know goes on to `next`. */
export function routeTable(routes: readonly Route[]): Middleware {
  const literal = new Map<string, PathEntry>();
  const templated: TemplatedEntry[] = [];

  const entryFor = (template: string): PathEntry => {
    const segments = template.split('/');
    const names = segments.flatMap((segment) => PARAMETER.exec(segment)?.[1] ?? []);
    const known = names.length === 0 ? literal.get(template) : templated.find((e) => e.template === template);
    if (known !== undefined) return known;
    const entry = { template, handlers: new Map<string, Middleware>(), allow: '' };
    if (names.length === 0) {
      literal.set(template, entry);
      return entry;
    }
    const source = segments.map((s) => (PARAMETER.test(s) ? '([^/]+)' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
    const withPattern = { ...entry, pattern: new RegExp(`^${source}$`), names };
    templated.push(withPattern);
    return withPattern;
  };

  for (const route of routes) {
    const entry = entryFor(route.path);
    if (entry.handlers.has(route.method)) throw new Error(`two routes for ${route.method} ${route.path}`);
    entry.handlers.set(route.method, compose([...route.handlers]));
    const methods = [...entry.handlers.keys()].flatMap((m) => (m === 'GET' ? ['HEAD', 'GET'] : [m]));
    entry.allow = [...methods, 'OPTIONS'].join(', ');
  }

  const lookup = (path: string): { entry: PathEntry; params: Record<string, string> } | undefined => {
    const found = literal.get(path);
    if (found !== undefined) return { entry: found, params: {} };
    for (const entry of templated) {
      const match = entry.pattern.exec(path);
      if (match === null) continue;
      const params: Record<string, string> = {};
      entry.names.forEach((name, i) => (params[name] = decode(match[i + 1]!)));
      return { entry, params };
    }
    return undefined;
  };

  return async (ctx, next) => {
    const found = lookup(withoutTrailingSlash(ctx.path));
    if (found === undefined) return next();
    const { entry, params } = found;
    const handler = entry.handlers.get(ctx.method === 'HEAD' ? 'GET' : ctx.method);
    if (handler !== undefined) {
      ctx.state['route'] = entry.template;
      ctx.state['routeParams'] = params;
      return handler(ctx, ROUTE_END);
    }
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      ctx.set('Allow', entry.allow);
      return;
    }
    sendError(
      ctx,
      apiError('method_not_allowed', `${ctx.method} is not allowed on ${requestPath(ctx)}; use ${entry.allow}`, {
        headers: { Allow: entry.allow },
      }),
    );
  };
}
