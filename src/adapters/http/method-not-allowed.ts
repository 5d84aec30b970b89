// A known path asked with a method it does not have: 405 with `Allow` (RFC 9110 §15.5.6),
// or, for OPTIONS, 204 with `Allow`. @koa/router's allowedMethods() would answer unknown
// methods with 501, a server error, where the client is the one to change its request.
import type { Middleware } from 'koa';
import type { RouterContext } from '@koa/router';
import { apiError } from './error-catalogue.js';
import { requestPath } from './request-path.js';
import { sendError } from './send-error.js';

export const methodNotAllowed = (): Middleware => async (ctx, next) => {
  await next();
  if (ctx.status !== 404 || ctx.body != null) return;
  const layers = (ctx as unknown as RouterContext).matched ?? [];
  const allowed = [...new Set(layers.flatMap((layer) => layer.methods))];
  // No route of the path, or one of its routes took the method and found nothing: a plain 404.
  if (allowed.length === 0 || allowed.includes(ctx.method)) return;
  allowed.push('OPTIONS');
  const allow = allowed.join(', ');
  if (ctx.method === 'OPTIONS') {
    ctx.status = 204;
    ctx.set('Allow', allow);
    return;
  }
  sendError(ctx, apiError('method_not_allowed', `${ctx.method} is not allowed on ${requestPath(ctx)}; use ${allow}`, { headers: { Allow: allow } }));
};
