// The stored-key verifier with scopes, expiry and the throttled last use: the clock is the
// test's, so a minute passes when the test says, and the writes of last use are counted.
import { expect } from 'chai';
import { StoredApiKeyVerifier } from '../../../src/adapters/auth/stored-api-key-verifier.js';
import { USE_WRITE_INTERVAL_MS } from '../../../src/adapters/auth/api-key-use-recorder.js';
import { cryptoApiKeyGenerator } from '../../../src/adapters/auth/api-key.js';
import { MemoryApiKeyStore } from '../../../src/adapters/memory/memory-api-key-store.js';
import { type ApiKeyGrant, type ApiKeyId, type ApiKeyLabel, apiKeyAdmin, type ApiKeyStore, type Clock } from '../../../src/domain/index.js';
import { acceptedAs, UNKNOWN } from '../../support/credential-checks.js';

const T0 = new Date('2030-01-01T00:00:00.000Z').getTime();

describe('stored keys: scopes, expiry and last use', () => {
  let store: MemoryApiKeyStore;
  let now: number;
  let writes: Array<{ id: ApiKeyId; at: Date }>;
  let recordUse: ApiKeyStore['recordUse'];
  const clock: Clock = { now: () => new Date(now) };
  /** The memory store, its writes of last use counted (and done by `recordUse`, which a test may replace). */
  const counted = (): ApiKeyStore => ({
    create: (key) => store.create(key),
    list: () => store.list(),
    revoke: (id, at) => store.revoke(id, at),
    findActive: (digest) => store.findActive(digest),
    recordUse: (id, at) => {
      writes.push({ id, at });
      return recordUse(id, at);
    },
  });
  const create = async (grant: ApiKeyGrant = {}) => apiKeyAdmin(store, clock, cryptoApiKeyGenerator).create('' as ApiKeyLabel, grant);
  beforeEach(() => {
    store = new MemoryApiKeyStore();
    now = T0;
    writes = [];
    recordUse = (id, at) => store.recordUse(id, at);
  });
  /** Lets the writes started by the verifier run. */
  const settled = () => new Promise((resolve) => setImmediate(resolve));

  it('accepts a key with the scopes it was given, and one given every scope with every scope', async () => {
    const reader = await create({ scopes: ['pets:read'] });
    const every = await create();
    const verifier = new StoredApiKeyVerifier(counted(), { clock });
    expect(await verifier.verify(reader.key)).to.deep.equal(acceptedAs(reader.record.callerId, new Set(['pets:read'])));
    expect(await verifier.verify(every.key)).to.deep.equal(acceptedAs(every.record.callerId));
  });

  it('refuses a key from its expiry time on, saying that it expired and when; a revoked one is only unknown', async () => {
    const { key, record } = await create({ expiry: { after: 90 * 86_400_000 } });
    const verifier = new StoredApiKeyVerifier(counted(), { clock });
    now = record.expiresAt!.getTime() - 1;
    expect((await verifier.verify(key)).kind).to.equal('accepted');
    now = record.expiresAt!.getTime();
    expect(await verifier.verify(key)).to.deep.equal({ kind: 'refused', reason: 'the API key expired at 2030-04-01T00:00:00.000Z' });
    await apiKeyAdmin(store, clock, cryptoApiKeyGenerator).revoke(record.id);
    expect(await verifier.verify(key)).to.deep.equal(UNKNOWN);
  });

  it('writes the last use at the first use, then at most once a minute per key, and never for a refused key', async () => {
    const first = await create();
    const second = await create();
    const expired = await create({ expiry: { after: 60_000 } });
    const verifier = new StoredApiKeyVerifier(counted(), { clock });
    now = T0 + 60_000;
    for (let i = 0; i < 100; i += 1) await verifier.verify(first.key);
    await verifier.verify(second.key);
    await verifier.verify(expired.key);
    await verifier.verify('unknown-key-0123456789');
    now += USE_WRITE_INTERVAL_MS - 1;
    for (let i = 0; i < 100; i += 1) await verifier.verify(first.key);
    await settled();
    expect(writes.map(({ id, at }) => [id, at.getTime() - T0])).to.deep.equal([
      [first.record.id, 60_000],
      [second.record.id, 60_000],
    ]);
    now += 1;
    await verifier.verify(first.key);
    await verifier.verify(first.key);
    await settled();
    expect(writes.map(({ id }) => id)).to.deep.equal([first.record.id, second.record.id, first.record.id]);
    expect((await store.list()).map((key) => key.lastUsedAt?.getTime() ?? null)).to.deep.equal([T0 + 120_000, T0 + 60_000, null]);
  });

  it('answers without waiting for the write of last use', async () => {
    const { key, record } = await create();
    recordUse = () => new Promise<void>(() => undefined); // a write that never ends
    const verifier = new StoredApiKeyVerifier(counted(), { clock });
    expect(await verifier.verify(key)).to.deep.equal(acceptedAs(record.callerId));
    await settled();
    expect(writes).to.have.length(1);
  });

  it('accepts the key when the write fails, logs the failure with the caller and never the key, and writes again a minute later', async () => {
    const { key, record } = await create();
    const logged: Array<{ fields: unknown; message: string }> = [];
    const logger = { warn: (fields: unknown, message: string) => void logged.push({ fields, message }) };
    recordUse = () => Promise.reject(new Error('database is locked'));
    const verifier = new StoredApiKeyVerifier(counted(), { clock, logger: logger as never });
    expect(await verifier.verify(key)).to.deep.equal(acceptedAs(record.callerId));
    await verifier.verify(key);
    await settled();
    expect(logged).to.deep.equal([
      {
        fields: { caller: record.callerId, fault: { type: 'Error', message: 'database is locked' } },
        message: 'could not record the last use of a stored API key',
      },
    ]);
    expect(JSON.stringify(logged)).not.to.contain(key);
    now += USE_WRITE_INTERVAL_MS;
    await verifier.verify(key);
    await settled();
    expect(writes).to.have.length(2);
  });
});
