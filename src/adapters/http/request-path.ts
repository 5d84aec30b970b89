import type { Context } from 'koa';

/** The request's path as the client sent it (any mount prefix included), for links back to this service. */
export const requestPath = (ctx: Context): string => ctx.originalUrl.split('?')[0]!;
