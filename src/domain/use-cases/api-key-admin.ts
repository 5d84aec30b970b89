// Managing the keys of an ApiKeyStore: issue a new key (shown once, stored as its digest),
// list them without secrets, revoke one. The CLI (`petstore keys …`) and embedding code use these.
import type * as O from 'fp-ts/lib/Option.js';
import { type ApiKeyId, ApiKeyLabel, type ApiKeyRecord, type ApiKeyScopes, callerIdOf, canonicalScopes } from '../api-key.js';
import { type ApiKeyExpiry, apiKeyExpiryProblem, expiresAtOf } from '../api-key-expiry.js';
import type { ApiKeyGenerator, ApiKeyStore, Clock } from '../ports/index.js';
import { isScope } from '../scopes.js';

/** A key just issued: the key itself, which is shown this once and never stored, and its record. */
export interface IssuedApiKey {
  readonly key: string;
  readonly record: ApiKeyRecord;
}

/** What a new key may do and for how long. */
export interface ApiKeyGrant {
  /** Its scopes: `'all'` when omitted (every scope, those of later releases too, as the keys of 1.x), or at least one listed. */
  readonly scopes?: ApiKeyScopes;
  /** When it expires: never when omitted, else between a minute and 3,650 days from its creation. */
  readonly expiry?: ApiKeyExpiry;
}

/** The operations on stored API keys: `list` is the store's own (records only, never a key or a digest). */
export interface ApiKeyAdmin extends Pick<ApiKeyStore, 'list'> {
  /**
   * Generates a key (256 random bits with the service's generator), stores its digest under
   * `label` with the scopes and expiry of `grant`, and answers the key once.
   * @throws TypeError for an invalid label, an unknown scope or an empty list of them; RangeError for an expiry out of bounds
   */
  create(label: ApiKeyLabel, grant?: ApiKeyGrant): Promise<IssuedApiKey>;
  /** Revokes a key from now on; none when no key has this id. Revoking twice keeps the first time. */
  revoke(id: ApiKeyId): Promise<O.Option<ApiKeyRecord>>;
}

// The types say so, but plain JavaScript callers get no compiler: check the scopes here too.
function checkedScopes(scopes: ApiKeyScopes): ApiKeyScopes {
  if (scopes === 'all') return scopes;
  if (!Array.isArray(scopes) || scopes.length === 0 || !scopes.every((scope) => typeof scope === 'string' && isScope(scope))) {
    throw new TypeError("the scopes must be 'all' or a list of at least one known scope");
  }
  return canonicalScopes(scopes);
}

/** The operations on the keys of `store`, with times from `clock` and new keys from `keys`. */
export const apiKeyAdmin = (store: ApiKeyStore, clock: Clock, keys: ApiKeyGenerator): ApiKeyAdmin => ({
  async create(label, { scopes = 'all', expiry } = {}) {
    if (!ApiKeyLabel.is(label)) throw new TypeError('the label must be a string of at most 100 characters, without control characters');
    const granted = checkedScopes(scopes);
    const createdAt = clock.now();
    const expiryProblem = expiry === undefined ? undefined : apiKeyExpiryProblem(expiry, createdAt);
    if (expiryProblem !== undefined) throw new RangeError(`the expiry ${expiryProblem}`);
    const key = keys.generate();
    const digest = keys.digest(key);
    const record = await store.create({
      digest,
      callerId: callerIdOf(digest),
      label,
      scopes: granted,
      createdAt,
      expiresAt: expiry === undefined ? null : expiresAtOf(expiry, createdAt),
    });
    return { key, record };
  },
  list: () => store.list(),
  revoke: (id) => store.revoke(id, clock.now()),
});
