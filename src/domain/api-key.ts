// What an API key may look like, and the API keys the service keeps in its database (beside
// those of its configuration): the record of a stored key, its id and its label. The key
// itself is never part of a record.
import * as t from 'io-ts';
import { positiveId } from './codec.js';
import { ALL_SCOPES, SCOPES, type Scope } from './scopes.js';
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

/**
 * The scopes a stored key was given: `'all'`, every scope, those a later release adds
 * included (the keys stored before keys had scopes, and those created without a scope), or
 * the scopes listed, in canonical form ({@link canonicalScopes}).
 */
export type ApiKeyScopes = 'all' | readonly Scope[];

/** The scopes of `names` in canonical form: each once, in the order of SCOPES; a name that is no scope is left out. */
export const canonicalScopes = (names: readonly string[]): readonly Scope[] => SCOPES.filter((scope) => names.includes(scope));

/** The scopes a key given `scopes` holds in this release. */
export const scopesHeld = (scopes: ApiKeyScopes): ReadonlySet<Scope> => (scopes === 'all' ? ALL_SCOPES : new Set(scopes));

/** A stored API key as it may be shown: everything but the key and its digest. */
export interface ApiKeyRecord {
  readonly id: ApiKeyId;
  readonly label: ApiKeyLabel;
  /** The caller the key authenticates as, in logs and as the scope of idempotency keys; never the key. */
  readonly callerId: string;
  /** What the key may do. */
  readonly scopes: ApiKeyScopes;
  readonly createdAt: Date;
  /** From when the key is refused as expired; null when it never expires. */
  readonly expiresAt: Date | null;
  /** When the key was revoked; null while it is active. */
  readonly revokedAt: Date | null;
  /** When a server last accepted the key, to the minute (at most one write per key per minute per process); null when never. */
  readonly lastUsedAt: Date | null;
}

/** Whether a key that expires at `expiresAt` has expired at `now`: from its expiry time on. */
export const hasExpired = (expiresAt: Date | null, now: Date): boolean => expiresAt !== null && now.getTime() >= expiresAt.getTime();

/** Whether a stored key is accepted at `now`: neither revoked nor expired. */
export const isActiveApiKey = (record: ApiKeyRecord, now: Date): boolean => record.revokedAt === null && !hasExpired(record.expiresAt, now);

/**
 * The caller id of the key with this digest: `key-` and the first 16 hex digits of its
 * SHA-256. Stable whatever the order or the source of the keys, never the key itself, and
 * computable by an operator who holds the key (`printf %s "$KEY" | sha256sum | cut -c1-16`).
 */
export const callerIdOf = (digest: string): string => `key-${digest.slice(0, 16)}`;
