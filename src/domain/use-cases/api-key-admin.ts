// Managing the keys of an ApiKeyStore: issue a new key (shown once, stored as its digest),
// list them without secrets, revoke one. The CLI (`petstore keys …`) and embedding code use these.
import type * as O from 'fp-ts/lib/Option.js';
import { type ApiKeyId, ApiKeyLabel, type ApiKeyRecord, callerIdOf } from '../api-key.js';
import type { ApiKeyGenerator, ApiKeyStore, Clock } from '../ports/index.js';

/** A key just issued: the key itself, which is shown this once and never stored, and its record. */
export interface IssuedApiKey {
  readonly key: string;
  readonly record: ApiKeyRecord;
}

/** The operations on stored API keys: `list` is the store's own (records only, never a key or a digest). */
export interface ApiKeyAdmin extends Pick<ApiKeyStore, 'list'> {
  /** Generates a key (256 random bits with the service's generator), stores its digest under `label`, and answers the key once. @throws TypeError for an invalid label */
  create(label: ApiKeyLabel): Promise<IssuedApiKey>;
  /** Revokes a key from now on; none when no key has this id. Revoking twice keeps the first time. */
  revoke(id: ApiKeyId): Promise<O.Option<ApiKeyRecord>>;
}

/** The operations on the keys of `store`, with times from `clock` and new keys from `keys`. */
export const apiKeyAdmin = (store: ApiKeyStore, clock: Clock, keys: ApiKeyGenerator): ApiKeyAdmin => ({
  async create(label) {
    // The type says so, but plain JavaScript callers get no compiler: check it here too.
    if (!ApiKeyLabel.is(label)) throw new TypeError('the label must be a string of at most 100 characters, without control characters');
    const key = keys.generate();
    const digest = keys.digest(key);
    const record = await store.create({ digest, callerId: callerIdOf(digest), label, createdAt: clock.now() });
    return { key, record };
  },
  list: () => store.list(),
  revoke: (id) => store.revoke(id, clock.now()),
});
