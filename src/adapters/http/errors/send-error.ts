// Writes an error answer: the seed's JSON Error body, or RFC 9457 problem details for a
// client that asks for application/problem+json. Every error of the app goes through here.
import { STATUS_CODES } from 'node:http';
import type { Context } from 'koa';
import { type ApiError, errorBody } from './error-catalogue.js';
import { mountPrefix } from '../request/request-path.js';
import { sendJson } from '../response/send-json.js';

export const PROBLEM_JSON = 'application/problem+json';
/** Where each code is explained (below any mount prefix); a problem's `type` is this page with the code as fragment. */
export const ERRORS_DOC_PATH = '/docs/errors';

/** Writes `error` as the response: its status, its headers and the body the client asked for. */
export function sendError(ctx: Context, error: ApiError): void {
  const { request, response } = ctx;
  for (const [name, value] of Object.entries(error.headers ?? {})) response.set(name, value);
  const requestId = ctx.state['requestId'] as string | undefined;
  const body = { ...errorBody(error), ...(requestId === undefined ? {} : { requestId }) };
  // Negotiated only when the client names problem+json above plain JSON; */* keeps the seed's body.
  if (request.get('Accept') !== '' && request.accepts('application/json', PROBLEM_JSON) === PROBLEM_JSON) {
    const problem = {
      type: `${mountPrefix(ctx)}${ERRORS_DOC_PATH}#${error.code}`,
      title: STATUS_CODES[error.status] ?? 'Error',
      status: error.status,
      detail: error.message,
      ...body,
    };
    return sendJson(ctx, error.status, problem, `${PROBLEM_JSON}; charset=utf-8`);
  }
  sendJson(ctx, error.status, body);
}
