// How long the service remembers a creation request sent with an idempotency key.
import * as t from 'io-ts';
import { constrained } from './codec.js';

/** How long idempotency records are kept and leased, and how long a key may be. */
export const IDEMPOTENCY_POLICY = {
  /** A completed request is remembered this long: a retry within it gets the original pet. */
  retentionMs: 24 * 60 * 60 * 1000,
  /**
   * A request in progress holds its key this long at most. A request that never finished
   * (its server was killed) frees the key after it, so a retry is not refused for a day.
   */
  leaseMs: 60 * 1000,
  maxKeyLength: 255,
} as const;

/** Brand of {@link IdempotencyKey}. */
export interface IdempotencyKeyBrand {
  readonly IdempotencyKey: unique symbol;
}
/** A client's idempotency key: 1 to 255 printable ASCII characters (a UUID is a good choice). */
export const IdempotencyKey = constrained<string, t.Branded<string, IdempotencyKeyBrand>>(
  'IdempotencyKey',
  t.string,
  (key) => (/^[\x20-\x7e]{1,255}$/.test(key) ? undefined : `must be 1 to ${IDEMPOTENCY_POLICY.maxKeyLength} printable ASCII characters`),
  'must be a string',
);
export type IdempotencyKey = t.TypeOf<typeof IdempotencyKey>;
