// Where the stored API keys are kept, and where new keys come from.
import type { Option } from 'fp-ts/lib/Option.js';
import type { ApiKeyId, ApiKeyLabel, ApiKeyRecord, ApiKeyScopes } from '../api-key.js';

/** What is stored of a new API key: its digest and record, never the key itself. */
export interface NewApiKeyRecord {
  /** The SHA-256 of the key, in lower-case hex (64 characters). */
  readonly digest: string;
  readonly callerId: string;
  readonly label: ApiKeyLabel;
  readonly scopes: ApiKeyScopes;
  readonly createdAt: Date;
  /** From when the key is refused; null when it never expires. */
  readonly expiresAt: Date | null;
}

/** A stored API key found by its digest: its record and the digest it was stored with. */
export interface StoredApiKey {
  readonly record: ApiKeyRecord;
  readonly digest: string;
}

/**
 * The API keys kept in the service's database, as digests: several may be active at once,
 * so a key can be rotated without downtime, and a revoked key stays listed but is no longer found.
 */
export interface ApiKeyStore {
  /** Stores a new key, never used yet, with the next id (ids only ever increase); rejects a digest that is already stored. */
  create(key: NewApiKeyRecord): Promise<ApiKeyRecord>;
  /** Every stored key, active and revoked, in ascending id order. */
  list(): Promise<readonly ApiKeyRecord[]>;
  /**
   * The key with this digest unless it was revoked, or none when no key has it or its key was
   * revoked. An expired key is found: the verifier tells its holder that it expired.
   */
  findActive(digest: string): Promise<Option<StoredApiKey>>;
  /**
   * Records that the key with this id was accepted at `at`. Its last use only ever moves
   * forward: an earlier `at` than the one recorded changes nothing. An unknown id changes nothing.
   */
  recordUse(id: ApiKeyId, at: Date): Promise<void>;
  /**
   * Revokes a key from `at` on and answers its record; a key revoked before keeps its first
   * revocation time. None when no key has this id.
   */
  revoke(id: ApiKeyId, at: Date): Promise<Option<ApiKeyRecord>>;
}

/** Makes new API keys and their digests: randomness and hashing, which the domain leaves to an adapter. */
export interface ApiKeyGenerator {
  /** A fresh random key, never stored. */
  generate(): string;
  /** The digest of `key`: all that an ApiKeyStore keeps of it. */
  digest(key: string): string;
}
