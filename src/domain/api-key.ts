// What an API key may look like, and the API keys the service keeps in its database (beside
// those of its configuration): the record of a stored key, its id and its label. The key
// itself is never part of a record.
import * as t from 'io-ts';
import { positiveId } from './codec.js';
import { storedText } from './text.js';

/** The syntax of an API key: a bearer b64token (the token68 syntax of RFC 6750 §2.1). */
export const API_KEY_PATTERN = /^[A-Za-z0-9\-._~+/]+=*$/;
/** The shortest API key accepted from the configuration: long enough to resist guessing. */
export const MIN_API_KEY_LENGTH = 16;

/** Why `key` cannot be an API key, or undefined when it can. */
export function apiKeyProblem(key: string): string | undefined {
  if (!API_KEY_PATTERN.test(key)) return 'may contain only letters, digits and - . _ ~ + / (then = padding)';
  if (key.length < MIN_API_KEY_LENGTH) return `must be at least ${MIN_API_KEY_LENGTH} characters long`;
  return undefined;
}

/** The most Unicode code points an API key's label may have. */
export const MAX_API_KEY_LABEL_LENGTH = 100;

/** Brand of {@link ApiKeyLabel}. */
export interface ApiKeyLabelBrand {
  readonly ApiKeyLabel: unique symbol;
}
/** Who or what a stored key is for, as an operator writes it: 0 to 100 code points, no control characters. */
export const ApiKeyLabel = storedText<ApiKeyLabelBrand>('ApiKeyLabel', MAX_API_KEY_LABEL_LENGTH, false);
/** A valid API key label. */
export type ApiKeyLabel = t.TypeOf<typeof ApiKeyLabel>;

/** Brand of {@link ApiKeyId}. */
export interface ApiKeyIdBrand {
  readonly ApiKeyId: unique symbol;
}
/** The id the store gives a stored key: a positive integer, never reused, by which an operator revokes it. */
export const ApiKeyId = positiveId<ApiKeyIdBrand>('ApiKeyId');
/** A valid API key id. */
export type ApiKeyId = t.TypeOf<typeof ApiKeyId>;

/** A stored API key as it may be shown: everything but the key and its digest. */
export interface ApiKeyRecord {
  readonly id: ApiKeyId;
  readonly label: ApiKeyLabel;
  /** The caller the key authenticates as, in logs and as the scope of idempotency keys; never the key. */
  readonly callerId: string;
  readonly createdAt: Date;
  /** When the key was revoked; null while it is active. */
  readonly revokedAt: Date | null;
}

/** Whether a stored key is still accepted. */
export const isActiveApiKey = (record: ApiKeyRecord): boolean => record.revokedAt === null;

/**
 * The caller id of the key with this digest: `key-` and the first 16 hex digits of its
 * SHA-256. Stable whatever the order or the source of the keys, never the key itself, and
 * computable by an operator who holds the key (`printf %s "$KEY" | sha256sum | cut -c1-16`).
 */
export const callerIdOf = (digest: string): string => `key-${digest.slice(0, 16)}`;
