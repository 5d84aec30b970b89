// The behaviour every ApiKeyStore adapter must have; the memory adapter is its reference.
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import * as O from 'fp-ts/lib/Option.js';
import type { ApiKeyId, ApiKeyLabel, ApiKeyRecord, ApiKeyScopes, ApiKeyStore, NewApiKeyRecord } from '../../src/domain/index.js';

export interface ApiKeyStoreUnderTest {
  readonly store: ApiKeyStore;
  close(): Promise<void>;
}

const T0 = new Date('2030-01-01T00:00:00.123Z').getTime();
const at = (ms: number) => new Date(T0 + ms);
const digestOf = (key: string) => createHash('sha256').update(key).digest('hex');
const newKey = (
  key: string,
  label = `label of ${key}`,
  createdAt = at(0),
  grant: { scopes?: ApiKeyScopes; expiresAt?: Date | null } = {},
): NewApiKeyRecord => ({
  digest: digestOf(key),
  callerId: `key-${digestOf(key).slice(0, 16)}`,
  label: label as ApiKeyLabel,
  scopes: grant.scopes ?? 'all',
  createdAt,
  expiresAt: grant.expiresAt ?? null,
});
const recordOf = (found: O.Option<{ record: ApiKeyRecord }>): ApiKeyRecord | undefined =>
  O.toUndefined(O.map((f: { record: ApiKeyRecord }) => f.record)(found));
const rejectionOf = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => expect.fail('expected a rejection'),
    (err: unknown) => err,
  );

export function apiKeyStoreContract(adapterName: string, open: () => Promise<ApiKeyStoreUnderTest>): void {
  describe(`ApiKeyStore contract: ${adapterName}`, () => {
    let subject: ApiKeyStoreUnderTest;
    let store: ApiKeyStore;
    beforeEach(async () => {
      subject = await open();
      store = subject.store;
    });
    afterEach(() => subject.close());

    it('lists nothing at first', async () => {
      expect(await store.list()).to.deep.equal([]);
    });

    it('creates a key: its record has a new id, the label, the caller id, every scope and the time, is active and never used', async () => {
      const record = await store.create(newKey('first', 'CI pipeline', at(5)));
      expect(record).to.deep.equal({
        id: record.id,
        label: 'CI pipeline',
        callerId: newKey('first').callerId,
        scopes: 'all',
        createdAt: at(5),
        expiresAt: null,
        revokedAt: null,
        lastUsedAt: null,
      });
      expect(Number.isSafeInteger(record.id) && record.id >= 1, 'a positive integer id').to.equal(true);
    });

    it('gives increasing ids and lists every key in id order, never with its digest', async () => {
      const created: ApiKeyRecord[] = [];
      for (const key of ['a', 'b', 'c']) created.push(await store.create(newKey(key)));
      expect(created[0]!.id).to.be.below(created[1]!.id);
      expect(created[1]!.id).to.be.below(created[2]!.id);
      const listed = await store.list();
      expect(listed).to.deep.equal(created);
      for (const record of listed) {
        expect(Object.keys(record).sort()).to.deep.equal([
          'callerId',
          'createdAt',
          'expiresAt',
          'id',
          'label',
          'lastUsedAt',
          'revokedAt',
          'scopes',
        ]);
      }
    });

    it('finds an active key by its digest, with that digest; an unknown digest finds none', async () => {
      const record = await store.create(newKey('findable'));
      expect(await store.findActive(digestOf('findable'))).to.deep.equal(O.some({ record, digest: digestOf('findable') }));
      expect(await store.findActive(digestOf('unknown'))).to.deep.equal(O.none);
      expect(await store.findActive(digestOf('findable').toUpperCase()), 'digests are compared exactly').to.deep.equal(O.none);
    });

    it('keeps several keys active at once, so a key can be rotated without downtime', async () => {
      const old = await store.create(newKey('old'));
      const next = await store.create(newKey('new'));
      expect(recordOf(await store.findActive(digestOf('old')))).to.deep.equal(old);
      expect(recordOf(await store.findActive(digestOf('new')))).to.deep.equal(next);
      await store.revoke(old.id, at(10));
      expect(await store.findActive(digestOf('old'))).to.deep.equal(O.none);
      expect(O.isSome(await store.findActive(digestOf('new')))).to.equal(true);
    });

    it('revokes a key at once: it is no longer found, and is listed with its revocation time', async () => {
      const record = await store.create(newKey('revoked'));
      expect(await store.revoke(record.id, at(60_000))).to.deep.equal(O.some({ ...record, revokedAt: at(60_000) }));
      expect(await store.findActive(digestOf('revoked'))).to.deep.equal(O.none);
      expect(await store.list()).to.deep.equal([{ ...record, revokedAt: at(60_000) }]);
    });

    it('keeps the first revocation time when a key is revoked again', async () => {
      const record = await store.create(newKey('twice'));
      await store.revoke(record.id, at(1000));
      expect(await store.revoke(record.id, at(2000))).to.deep.equal(O.some({ ...record, revokedAt: at(1000) }));
      expect(await store.list()).to.deep.equal([{ ...record, revokedAt: at(1000) }]);
    });

    it('answers none when revoking an id no key has, and changes nothing', async () => {
      const record = await store.create(newKey('kept'));
      expect(await store.revoke((record.id + 1000) as ApiKeyId, at(1))).to.deep.equal(O.none);
      expect(await store.list()).to.deep.equal([record]);
    });

    it('refuses a second key with a digest already stored, even a revoked one', async () => {
      const record = await store.create(newKey('dup'));
      expect(await rejectionOf(store.create(newKey('dup', 'again')))).to.be.instanceOf(Error);
      await store.revoke(record.id, at(1));
      expect(await rejectionOf(store.create(newKey('dup', 'again')))).to.be.instanceOf(Error);
      expect(await store.list()).to.have.length(1);
    });

    it('keeps labels verbatim, the empty one and any Unicode included', async () => {
      for (const label of ['', '  spaced  ', 'Zürich 🐕 team', 'x'.repeat(100)]) {
        const record = await store.create(newKey(`key for ${label}`, label));
        expect(record.label).to.equal(label);
      }
      expect((await store.list()).map((r) => r.label)).to.deep.equal(['', '  spaced  ', 'Zürich 🐕 team', 'x'.repeat(100)]);
    });

    it('keeps the scopes a key is given, listed or every one, and its expiry', async () => {
      const reader = await store.create(newKey('reader', 'r', at(0), { scopes: ['pets:read'], expiresAt: at(90_000) }));
      const writer = await store.create(newKey('writer', 'w', at(0), { scopes: ['pets:read', 'pets:write'] }));
      const every = await store.create(newKey('every', 'e', at(0), { scopes: 'all', expiresAt: at(1) }));
      expect([reader, writer, every].map(({ scopes, expiresAt }) => ({ scopes, expiresAt }))).to.deep.equal([
        { scopes: ['pets:read'], expiresAt: at(90_000) },
        { scopes: ['pets:read', 'pets:write'], expiresAt: null },
        { scopes: 'all', expiresAt: at(1) },
      ]);
      expect(await store.list()).to.deep.equal([reader, writer, every]);
      expect(recordOf(await store.findActive(digestOf('reader')))).to.deep.equal(reader);
    });

    it('finds an expired key that is not revoked: the verifier tells that it expired', async () => {
      const record = await store.create(newKey('expired', 'x', at(0), { expiresAt: at(1) }));
      expect(recordOf(await store.findActive(digestOf('expired')))).to.deep.equal(record);
    });

    it('records the last use of a key, which only moves forward', async () => {
      const record = await store.create(newKey('used'));
      const other = await store.create(newKey('unused'));
      await store.recordUse(record.id, at(120_000));
      expect(recordOf(await store.findActive(digestOf('used')))?.lastUsedAt).to.deep.equal(at(120_000));
      await store.recordUse(record.id, at(60_000));
      await store.recordUse(record.id, at(120_000));
      expect((await store.list()).map((r) => r.lastUsedAt)).to.deep.equal([at(120_000), null]);
      await store.recordUse(record.id, at(180_000));
      expect(await store.list()).to.deep.equal([{ ...record, lastUsedAt: at(180_000) }, other]);
    });

    it('changes nothing when recording the use of an id no key has', async () => {
      const record = await store.create(newKey('alone'));
      await store.recordUse((record.id + 1000) as ApiKeyId, at(1));
      expect(await store.list()).to.deep.equal([record]);
    });

    it('does not let a caller change a stored record through the one it was given', async () => {
      const record = await store.create(newKey('frozen'));
      try {
        (record as { label: string }).label = 'changed';
      } catch {
        // a frozen record refuses the change: just as good
      }
      record.createdAt.setTime(0);
      const [listed] = await store.list();
      expect(listed!.label).to.equal('label of frozen');
      expect(listed!.createdAt).to.deep.equal(at(0));
    });
  });
}
