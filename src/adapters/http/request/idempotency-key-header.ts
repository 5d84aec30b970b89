// The Idempotency-Key request header (draft-ietf-httpapi-idempotency-key-header): a
// Structured Field string, `Idempotency-Key: "8e03978e-40d5-43e8-bc93-6894a57f9324"`.
// The bare form without quotes, which many clients send, is accepted too. The field is one
// value, not a list: a request that sends it twice is refused, as Node would join both lines
// into one new key.
import * as E from 'fp-ts/lib/Either.js';
import type { Context, Middleware } from 'koa';
import { IdempotencyKey } from '../../../domain/index.js';
import { apiError } from '../errors/error-catalogue.js';
import { sendError } from '../errors/send-error.js';
import { fieldLineCount } from './field-lines.js';
import { GIVEN_ONCE } from './parameters.js';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

const SF_STRING = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/;

/** The key in the header, none when the header is absent, or why it cannot be a key. */
export function parseIdempotencyKey(header: string | undefined): E.Either<string, IdempotencyKey | undefined> {
  if (header === undefined) return E.right(undefined);
  const trimmed = header.trim();
  const quoted = SF_STRING.exec(trimmed);
  const key = quoted === null ? trimmed : quoted[1]!.replace(/\\(["\\])/g, '$1');
  if (quoted === null && trimmed.startsWith('"')) return E.left('must be a quoted string with only " and \\ escaped');
  return IdempotencyKey.is(key) ? E.right(key) : E.left('must be 1 to 255 printable ASCII characters');
}

// Read raw: ctx.get() answers '' for an absent header too, and an empty key must be refused.
const HEADER_FIELD = IDEMPOTENCY_KEY_HEADER.toLowerCase();
const STATE_KEY = 'idempotencyKey';

/**
 * Checks the Idempotency-Key header before the body is read: a malformed or repeated key is
 * answered `400 invalid_parameter` at once, a valid one is left for {@link idempotencyKeyOf}.
 */
export const readIdempotencyKey: Middleware = async function readIdempotencyKey(ctx, next) {
  const key =
    fieldLineCount(ctx.req, HEADER_FIELD) > 1
      ? E.left(GIVEN_ONCE)
      : parseIdempotencyKey(ctx.request.headers[HEADER_FIELD] as string | undefined);
  if (E.isLeft(key)) {
    return sendError(
      ctx,
      apiError('invalid_parameter', `Invalid header parameter: ${IDEMPOTENCY_KEY_HEADER} ${key.left}`, {
        details: [{ in: 'header', field: IDEMPOTENCY_KEY_HEADER, message: key.left }],
      }),
    );
  }
  ctx.state[STATE_KEY] = key.right;
  await next();
};

/** The key readIdempotencyKey found, or undefined when the request sent none. */
export const idempotencyKeyOf = (ctx: Context): IdempotencyKey | undefined => ctx.state[STATE_KEY] as IdempotencyKey | undefined;
