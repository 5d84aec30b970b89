import { createHash } from 'node:crypto';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import { cryptoApiKeyGenerator } from '../../../src/adapters/auth/api-key.js';
import { apiKeyAdmin } from '../../../src/domain/use-cases/api-key-admin.js';
import { StaticApiKeyVerifier } from '../../../src/adapters/auth/static-api-key-verifier.js';
import { acceptedAs, UNKNOWN } from '../../support/credential-checks.js';
import { anyCredentialVerifier } from '../../../src/adapters/auth/any-credential-verifier.js';
import { StoredApiKeyVerifier } from '../../../src/adapters/auth/stored-api-key-verifier.js';
import { MemoryApiKeyStore } from '../../../src/adapters/memory/memory-api-key-store.js';
import { ApiKeyLabel, type ApiKeyStore, apiKeyProblem, type Clock } from '../../../src/domain/index.js';

const label = (text: string): ApiKeyLabel => {
  const decoded = ApiKeyLabel.decode(text);
  if (E.isLeft(decoded)) throw new Error(`bad label ${text}`);
  return decoded.right;
};
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('stored API keys', () => {
  let store: ApiKeyStore;
  let now: Date;
  const clock: Clock = { now: () => now };
  beforeEach(() => {
    store = new MemoryApiKeyStore();
    now = new Date('2030-01-01T00:00:00Z');
  });
  /** The store, but for its lookup. */
  const withLookup = (findActive: ApiKeyStore['findActive']): ApiKeyStore => ({
    create: (key) => store.create(key),
    list: () => store.list(),
    revoke: (id, at) => store.revoke(id, at),
    recordUse: (id, at) => store.recordUse(id, at),
    findActive,
  });

  it('issues a random, valid key once and stores only its digest, under a caller id made from the digest', async () => {
    const admin = apiKeyAdmin(store, clock, cryptoApiKeyGenerator);
    const issued = await admin.create(label('deploy bot'));
    expect(apiKeyProblem(issued.key)).to.equal(undefined);
    expect(issued.key).to.have.length(43);
    expect(issued.record).to.deep.equal({
      id: issued.record.id,
      label: 'deploy bot',
      callerId: `key-${sha256(issued.key).slice(0, 16)}`,
      scopes: 'all',
      createdAt: now,
      expiresAt: null,
      revokedAt: null,
      lastUsedAt: null,
    });
    expect(JSON.stringify(await admin.list())).not.to.contain(issued.key);
    expect(JSON.stringify(await admin.list())).not.to.contain(sha256(issued.key));
    expect(O.isSome(await store.findActive(sha256(issued.key)))).to.equal(true);
    expect((await admin.create(label(''))).key).not.to.equal(issued.key);
    const refused = await admin.create('tab\there' as ApiKeyLabel).catch((err: unknown) => err);
    expect(refused, 'a label checked even without the compiler').to.be.instanceOf(TypeError);
  });

  it('accepts an active stored key as its caller, and refuses it from the moment it is revoked', async () => {
    const admin = apiKeyAdmin(store, clock, cryptoApiKeyGenerator);
    const verifier = new StoredApiKeyVerifier(store, { clock });
    const { key, record } = await admin.create(label('rotating'));
    expect(await verifier.verify(key)).to.deep.equal(acceptedAs(record.callerId));
    const usedAt = now;
    now = new Date('2030-01-02T00:00:00Z');
    expect(await admin.revoke(record.id)).to.deep.equal(O.some({ ...record, revokedAt: now, lastUsedAt: usedAt }));
    expect(await verifier.verify(key)).to.deep.equal(UNKNOWN);
  });

  it('refuses unknown keys, prefixes, extensions and case changes of a stored key', async () => {
    const { key } = await apiKeyAdmin(store, clock, cryptoApiKeyGenerator).create(label('x'));
    const verifier = new StoredApiKeyVerifier(store);
    for (const candidate of ['', 'unknown-key-0123456789', key.slice(0, -1), `${key}x`, key.toUpperCase()]) {
      expect(await verifier.verify(candidate), candidate).to.deep.equal(UNKNOWN);
    }
  });

  it('refuses a key whose stored digest differs from the one looked up (a loose lookup of an adapter)', async () => {
    const { key, record } = await apiKeyAdmin(store, clock, cryptoApiKeyGenerator).create(label('x'));
    const loose = withLookup(() => Promise.resolve(O.some({ record, digest: sha256(`${key}-other`) })));
    expect(await new StoredApiKeyVerifier(loose).verify(key)).to.deep.equal(UNKNOWN);
  });

  it('combines verifiers: configured keys and stored keys are both accepted, each as its own caller', async () => {
    const configured = 'configured-key-0123456789';
    const { key, record } = await apiKeyAdmin(store, clock, cryptoApiKeyGenerator).create(label('stored'));
    const verifier = anyCredentialVerifier(new StaticApiKeyVerifier([configured]), new StoredApiKeyVerifier(store));
    expect(await verifier.verify(configured)).to.deep.equal(acceptedAs(`key-${sha256(configured).slice(0, 16)}`));
    expect(await verifier.verify(key)).to.deep.equal(acceptedAs(record.callerId));
    expect(await verifier.verify('neither-key-0123456789')).to.deep.equal(UNKNOWN);
    expect(await anyCredentialVerifier().verify(configured), 'no verifier accepts nothing').to.deep.equal(UNKNOWN);
  });

  it('does not ask the store for a configured key', async () => {
    let asked = 0;
    const counting = withLookup(async (digest) => {
      asked += 1;
      return store.findActive(digest);
    });
    const verifier = anyCredentialVerifier(new StaticApiKeyVerifier(['configured-key-0123456789']), new StoredApiKeyVerifier(counting));
    await verifier.verify('configured-key-0123456789');
    expect(asked).to.equal(0);
    await verifier.verify('other-key-0123456789');
    expect(asked).to.equal(1);
  });
});

describe('ApiKeyLabel', () => {
  it('accepts 0 to 100 code points without control characters', () => {
    for (const ok of ['', 'CI', 'Zürich 🐕', '🐕'.repeat(100)]) expect(ApiKeyLabel.is(ok), ok).to.equal(true);
    for (const bad of ['x'.repeat(101), 'tab\there', 'line\nbreak', '\ud800', 42]) expect(ApiKeyLabel.is(bad), String(bad)).to.equal(false);
  });
});
