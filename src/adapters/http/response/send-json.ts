// The one way the HTTP adapter writes a JSON answer: serialised here, with its Content-Type set
// as a header, so that Koa neither guesses the type of an object body nor looks 'json' up by
// name on every answer.
import type { Context } from 'koa';

/** The media type of every JSON answer but problem details. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Answers `status` with `value` as JSON, of `contentType` (plain JSON by default). */
export function sendJson(ctx: Context, status: number, value: unknown, contentType: string = JSON_CONTENT_TYPE): void {
  const { response } = ctx;
  response.status = status;
  response.set('Content-Type', contentType);
  response.body = JSON.stringify(value);
}
