// The Idempotency-Key request header (draft-ietf-httpapi-idempotency-key-header): a
// Structured Field string, `Idempotency-Key: "8e03978e-40d5-43e8-bc93-6894a57f9324"`.
// The bare form without quotes, which many clients send, is accepted too.
import * as E from 'fp-ts/lib/Either.js';
import { IdempotencyKey } from '../../domain/index.js';

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
