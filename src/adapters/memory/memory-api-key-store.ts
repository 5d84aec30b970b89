// The reference behaviour of ApiKeyStore (see test/contract/api-key-store.contract.ts).
import * as O from 'fp-ts/lib/Option.js';
import type { ApiKeyId, ApiKeyRecord, ApiKeyStore, NewApiKeyRecord, StoredApiKey } from '../../domain/index.js';

// A fresh copy for every answer: a caller that changes a record or its dates changes only its copy.
const copyOf = (record: ApiKeyRecord): ApiKeyRecord => ({
  ...record,
  createdAt: new Date(record.createdAt),
  revokedAt: record.revokedAt === null ? null : new Date(record.revokedAt),
});

/** Stored API keys in memory: nothing is kept after exit. */
export class MemoryApiKeyStore implements ApiKeyStore {
  private readonly keys: StoredApiKey[] = []; // in id order: ids only grow
  private readonly byDigest = new Map<string, number>(); // digest → index in `keys`

  async create(key: NewApiKeyRecord): Promise<ApiKeyRecord> {
    if (this.byDigest.has(key.digest)) throw new Error('an API key with this digest is already stored');
    const record: ApiKeyRecord = {
      id: (this.keys.length + 1) as ApiKeyId,
      label: key.label,
      callerId: key.callerId,
      createdAt: new Date(key.createdAt),
      revokedAt: null,
    };
    this.byDigest.set(key.digest, this.keys.length);
    this.keys.push({ record, digest: key.digest });
    return copyOf(record);
  }

  async list(): Promise<readonly ApiKeyRecord[]> {
    return this.keys.map((key) => copyOf(key.record));
  }

  async findActive(digest: string): Promise<O.Option<StoredApiKey>> {
    const index = this.byDigest.get(digest);
    const found = index === undefined ? undefined : this.keys[index];
    return found === undefined || found.record.revokedAt !== null ? O.none : O.some({ record: copyOf(found.record), digest });
  }

  async revoke(id: ApiKeyId, at: Date): Promise<O.Option<ApiKeyRecord>> {
    const found = this.keys[id - 1];
    if (found === undefined) return O.none;
    if (found.record.revokedAt === null) {
      this.keys[id - 1] = { ...found, record: { ...found.record, revokedAt: new Date(at) } };
    }
    return O.some(copyOf(this.keys[id - 1]!.record));
  }
}
