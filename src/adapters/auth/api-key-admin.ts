// Managing the keys of an ApiKeyStore: issue a new key (shown once, stored as its digest),
// list them without secrets, revoke one. The CLI (`petstore keys …`) and embedding code use these.
import type * as O from 'fp-ts/lib/Option.js';
import { type ApiKeyId, ApiKeyLabel, type ApiKeyRecord, type ApiKeyStore, type Clock } from '../../domain/index.js';
import { apiKeyDigest, callerIdOf, generateApiKey } from './api-key.js';

/** A key just issued: the key itself, which is shown this once and never stored, and its record. */
export interface IssuedApiKey {
  readonly key: string;
  readonly record: ApiKeyRecord;
}

/** The operations on stored API keys. */
export interface ApiKeyAdmin {
  /** Generates a key (256 random bits), stores its digest under `label`, and answers the key once. @throws TypeError for an invalid label */
  create(label: ApiKeyLabel): Promise<IssuedApiKey>;
  /** Every stored key, active and revoked, in id order; never a key or a digest. */
  list(): Promise<readonly ApiKeyRecord[]>;
  /** Revokes a key from now on; none when no key has this id. Revoking twice keeps the first time. */
  revoke(id: ApiKeyId): Promise<O.Option<ApiKeyRecord>>;
}

/** The operations on the keys of `store`, with times from `clock`. */
export const apiKeyAdmin = (store: ApiKeyStore, clock: Clock): ApiKeyAdmin => ({
  async create(label) {
    // The type says so, but plain JavaScript callers get no compiler: check it here too.
    if (!ApiKeyLabel.is(label)) throw new TypeError('the label must be a string of at most 100 characters, without control characters');
    const key = generateApiKey();
    const digest = apiKeyDigest(key);
    const record = await store.create({ digest, callerId: callerIdOf(digest), label, createdAt: clock.now() });
    return { key, record };
  },
  list: () => store.list(),
  revoke: (id) => store.revoke(id, clock.now()),
});
