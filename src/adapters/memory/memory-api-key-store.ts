// The reference behaviour of ApiKeyStore (see test/contract/api-key-store.contract.ts).
import * as O from 'fp-ts/lib/Option.js';
import type { ApiKeyId, ApiKeyRecord, ApiKeyStore, NewApiKeyRecord, StoredApiKey } from '../../domain/index.js';

const copyOfTime = (time: Date | null): Date | null => (time === null ? null : new Date(time));

// A fresh copy for every answer: a caller that changes a record or its dates changes only its copy.
const copyOf = (record: ApiKeyRecord): ApiKeyRecord => ({
  ...record,
  scopes: record.scopes === 'all' ? 'all' : [...record.scopes],
  createdAt: new Date(record.createdAt),
  expiresAt: copyOfTime(record.expiresAt),
  revokedAt: copyOfTime(record.revokedAt),
  lastUsedAt: copyOfTime(record.lastUsedAt),
});

/** Stored API keys in memory: nothing is kept after exit. */
export class MemoryApiKeyStore implements ApiKeyStore {
  private readonly keys = new Map<number, StoredApiKey>(); // id → key, in id order (ids only grow; restore keeps the order)
  private readonly byDigest = new Map<string, number>(); // digest → id
  private lastId = 0;

  async create(key: NewApiKeyRecord): Promise<ApiKeyRecord> {
    if (this.byDigest.has(key.digest)) throw new Error('an API key with this digest is already stored');
    const record: ApiKeyRecord = copyOf({
      id: (this.lastId + 1) as ApiKeyId,
      label: key.label,
      callerId: key.callerId,
      scopes: key.scopes,
      createdAt: key.createdAt,
      expiresAt: key.expiresAt,
      revokedAt: null,
      lastUsedAt: null,
    });
    this.lastId = record.id;
    this.byDigest.set(key.digest, record.id);
    this.keys.set(record.id, { record, digest: key.digest });
    return copyOf(record);
  }

  async list(): Promise<readonly ApiKeyRecord[]> {
    return [...this.keys.values()].map((key) => copyOf(key.record));
  }

  async findActive(digest: string): Promise<O.Option<StoredApiKey>> {
    const id = this.byDigest.get(digest);
    const found = id === undefined ? undefined : this.keys.get(id);
    return found === undefined || found.record.revokedAt !== null ? O.none : O.some({ record: copyOf(found.record), digest });
  }

  async revoke(id: ApiKeyId, at: Date): Promise<O.Option<ApiKeyRecord>> {
    const found = this.keys.get(id);
    if (found === undefined) return O.none;
    if (found.record.revokedAt === null) {
      this.keys.set(id, { ...found, record: { ...found.record, revokedAt: new Date(at) } });
    }
    return O.some(copyOf(this.keys.get(id)!.record));
  }

  async recordUse(id: ApiKeyId, at: Date): Promise<void> {
    const found = this.keys.get(id);
    if (found === undefined || (found.record.lastUsedAt !== null && found.record.lastUsedAt >= at)) return;
    this.keys.set(id, { ...found, record: { ...found.record, lastUsedAt: new Date(at) } });
  }

  /** Every stored key with its digest, in id order (MemoryStoreArchive's export). */
  stored(): readonly StoredApiKey[] {
    return [...this.keys.values()].map(({ record, digest }) => ({ record: copyOf(record), digest }));
  }

  /**
   * Stores `key` with its own id (MemoryStoreArchive's import), keeping id order; a key
   * already stored under that id, or with that digest, is answered instead. Later creates get
   * ids above it.
   */
  restore(key: StoredApiKey): StoredApiKey {
    const id = this.byDigest.get(key.digest) ?? key.record.id;
    const found = this.keys.get(id) ?? this.keys.get(key.record.id);
    if (found !== undefined) return found;
    const restored = { record: copyOf(key.record), digest: key.digest };
    const later = [...this.keys.entries()].filter(([other]) => other > id);
    for (const [other] of later) this.keys.delete(other);
    this.keys.set(id, restored);
    for (const [other, entry] of later) this.keys.set(other, entry);
    this.byDigest.set(key.digest, id);
    this.lastId = Math.max(this.lastId, id);
    return restored;
  }
}
