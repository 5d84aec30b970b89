import type { Context } from 'koa';
import { type ApiError, errorBody } from './error-catalogue.js';

/** Writes `error` as the response: its status, its headers and the JSON Error body. */
export function sendError(ctx: Context, error: ApiError): void {
  ctx.status = error.status;
  for (const [name, value] of Object.entries(error.headers ?? {})) ctx.set(name, value);
  ctx.body = errorBody(error);
}
