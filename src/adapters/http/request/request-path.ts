// Where the client sent a request, for links back to this service. When the app is mounted
// inside another Koa app (koa-mount, or any mount that strips its prefix from ctx.path),
// ctx.originalUrl still holds the whole path: links built from it keep the mount prefix.
import type { Context } from 'koa';

/** The request's path as the client sent it (any mount prefix included), without the query. */
export const requestPath = (ctx: Context): string => {
  const url = ctx.originalUrl;
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};

/**
 * The prefix the app is mounted under (`/petstore` for `/petstore/v1/pets`), or '' when it
 * serves from the root: what the client's path has in front of the path the app sees.
 */
export const mountPrefix = (ctx: Context): string => {
  // Served from the root, the URL is the one the client sent: no prefix, nothing to compare.
  if (ctx.request.url === ctx.originalUrl) return '';
  const original = requestPath(ctx);
  const { path } = ctx.request;
  return original.endsWith(path) ? original.slice(0, original.length - path.length).replace(/\/$/, '') : '';
};
