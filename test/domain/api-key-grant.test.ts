// What a new stored key may do and for how long: apiKeyAdmin's grant, checked even without the
// compiler, and the scopes a key's record holds.
import { expect } from 'chai';
import { MemoryApiKeyStore } from '../../src/adapters/memory/memory-api-key-store.js';
import {
  ALL_SCOPES,
  type ApiKeyLabel,
  apiKeyAdmin,
  type ApiKeyScopes,
  apiKeyExpiryProblem,
  type Clock,
  hasExpired,
  isActiveApiKey,
  MAX_API_KEY_LIFETIME_MS,
  scopesHeld,
} from '../../src/domain/index.js';

const NOW = new Date('2030-01-01T00:00:00.000Z');
const clock: Clock = { now: () => NOW };
let counter = 0;
const keys = { generate: () => `generated-key-${(counter += 1)}-0123456789`, digest: (key: string) => key.padEnd(64, '0').slice(0, 64) };
const label = 'grant' as ApiKeyLabel;
const rejectionOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => expect.fail('expected a rejection'),
    (err: unknown) => err,
  );

describe('the grant of a new stored key', () => {
  it('gives every scope and no expiry when none is asked for', async () => {
    const { record } = await apiKeyAdmin(new MemoryApiKeyStore(), clock, keys).create(label);
    expect({ scopes: record.scopes, expiresAt: record.expiresAt }).to.deep.equal({ scopes: 'all', expiresAt: null });
  });

  it('keeps the scopes listed once each, in the order of SCOPES', async () => {
    const admin = apiKeyAdmin(new MemoryApiKeyStore(), clock, keys);
    const { record } = await admin.create(label, { scopes: ['pets:write', 'pets:read', 'pets:write'] });
    expect(record.scopes).to.deep.equal(['pets:read', 'pets:write']);
  });

  it('sets the expiry after a lifetime or at a time', async () => {
    const admin = apiKeyAdmin(new MemoryApiKeyStore(), clock, keys);
    expect((await admin.create(label, { expiry: { after: 90 * 86_400_000 } })).record.expiresAt).to.deep.equal(
      new Date('2030-04-01T00:00:00.000Z'),
    );
    const at = new Date('2031-06-01T12:00:00.000Z');
    expect((await admin.create(label, { expiry: { at } })).record.expiresAt).to.deep.equal(at);
  });

  it('refuses unknown scopes and an empty list with a TypeError, and stores nothing', async () => {
    const store = new MemoryApiKeyStore();
    const admin = apiKeyAdmin(store, clock, keys);
    for (const scopes of [[], ['pets:delete'], 'every', ['pets:read', 'PETS:WRITE']] as unknown as ApiKeyScopes[]) {
      expect(await rejectionOf(admin.create(label, { scopes })), JSON.stringify(scopes)).to.be.instanceOf(TypeError);
    }
    expect(await store.list()).to.deep.equal([]);
  });

  it('refuses an expiry under a minute or over 3,650 days away, or in the past, with a RangeError', async () => {
    const admin = apiKeyAdmin(new MemoryApiKeyStore(), clock, keys);
    for (const expiry of [
      { after: 59_999 },
      { after: MAX_API_KEY_LIFETIME_MS + 1 },
      { at: new Date('2029-12-31T00:00:00Z') },
      { at: new Date(Number.NaN) },
    ]) {
      expect(await rejectionOf(admin.create(label, { expiry })), JSON.stringify(expiry)).to.be.instanceOf(RangeError);
    }
    expect(apiKeyExpiryProblem({ after: 60_000 }, NOW)).to.equal(undefined);
    expect(apiKeyExpiryProblem({ after: MAX_API_KEY_LIFETIME_MS }, NOW)).to.equal(undefined);
  });
});

describe('the scopes and expiry of a stored key', () => {
  it('holds every scope for all, else those listed', () => {
    expect(scopesHeld('all')).to.equal(ALL_SCOPES);
    expect([...scopesHeld(['pets:read'])]).to.deep.equal(['pets:read']);
  });

  it('has expired from its expiry time on, and is then no longer active', () => {
    const expiresAt = new Date(NOW.getTime() + 1000);
    expect(hasExpired(expiresAt, new Date(NOW.getTime() + 999))).to.equal(false);
    expect(hasExpired(expiresAt, expiresAt)).to.equal(true);
    expect(hasExpired(null, new Date(8.64e15))).to.equal(false);
    const record = { revokedAt: null, expiresAt } as Parameters<typeof isActiveApiKey>[0];
    expect([isActiveApiKey(record, NOW), isActiveApiKey(record, expiresAt)]).to.deep.equal([true, false]);
  });
});
