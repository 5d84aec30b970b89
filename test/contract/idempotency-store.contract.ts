// The behaviour every IdempotencyStore adapter must have; the memory adapter is its reference.
import { expect } from 'chai';
import * as O from 'fp-ts/lib/Option.js';
import type {
  CategoryId,
  IdempotencyClaim,
  IdempotencyClaimRequest,
  IdempotencyStore,
  Pet,
  PetName,
  PetRepository,
} from '../../src/domain/index.js';

export interface StoreUnderTest {
  readonly store: IdempotencyStore;
  /** The pets of the same storage: createCompleting is how a claimed request completes. */
  readonly repository: PetRepository;
  close(): Promise<void>;
}

const T0 = new Date('2030-01-01T00:00:00Z').getTime();
const at = (ms: number) => new Date(T0 + ms);

/** A claim at `now` ms after T0, kept 1000 ms, leased 100 ms. */
const claimOf = (key: string, fingerprint = 'f1', now = 0, scope = 'caller-a'): IdempotencyClaimRequest => ({
  scope,
  key,
  fingerprint,
  now: at(now),
  expiresAt: at(now + 1000),
  leaseExpiresAt: at(now + 100),
});

/** The token of a claim that must have been granted. */
const tokenOf = (claim: IdempotencyClaim): string => {
  expect(claim.kind).to.equal('claimed');
  return (claim as { token: string }).token;
};

export function idempotencyStoreContract(adapterName: string, open: () => Promise<StoreUnderTest>): void {
  describe(`IdempotencyStore contract: ${adapterName}`, () => {
    let subject: StoreUnderTest;
    let store: IdempotencyStore;
    beforeEach(async () => {
      subject = await open();
      store = subject.store;
    });
    afterEach(() => subject.close());

    /** Completes the record `token` holds with a new pet named `name`: the pet, or undefined when the claim no longer held it. */
    const complete = async (key: string, token: string, name: string, scope = 'caller-a'): Promise<Pet | undefined> => {
      const created = await subject.repository.createCompleting(
        { name: name as PetName, categoryId: 1 as CategoryId, status: 'sold' },
        { scope, key, token },
      );
      return O.toUndefined(created);
    };

    it('claims a new key, then answers "in progress" with the fingerprint of the first claim', async () => {
      expect(tokenOf(await store.claim(claimOf('k1', 'f1'))))
        .to.be.a('string')
        .and.not.equal('');
      expect(await store.claim(claimOf('k1', 'f2', 10))).to.deep.equal({ kind: 'in-progress', fingerprint: 'f1' });
    });

    it('answers the recorded pet once the request is complete', async () => {
      const token = tokenOf(await store.claim(claimOf('k1')));
      const pet = await complete('k1', token, 'seven');
      expect(pet).to.deep.include({ name: 'seven', categoryId: 1, status: 'sold' });
      expect(await store.claim(claimOf('k1', 'f1', 500))).to.deep.equal({ kind: 'completed', fingerprint: 'f1', pet });
      expect(await store.claim(claimOf('k1', 'other', 500))).to.deep.equal({ kind: 'completed', fingerprint: 'f1', pet });
    });

    it('keeps the keys of different callers apart', async () => {
      const token = tokenOf(await store.claim(claimOf('k1', 'f1', 0, 'caller-a')));
      await complete('k1', token, 'one');
      tokenOf(await store.claim(claimOf('k1', 'f1', 0, 'caller-b')));
      expect(await store.claim(claimOf('k1', 'f1', 0, 'caller-a'))).to.deep.include({ kind: 'completed' });
    });

    it('does not confuse scope and key that join to the same text', async () => {
      tokenOf(await store.claim(claimOf('b:c', 'f1', 0, 'a')));
      tokenOf(await store.claim(claimOf('c', 'f1', 0, 'a:b')));
    });

    it('forgets a completed record once it has expired', async () => {
      const token = tokenOf(await store.claim(claimOf('k1')));
      await complete('k1', token, 'one');
      expect(await store.claim(claimOf('k1', 'f2', 999))).to.deep.include({ kind: 'completed' });
      tokenOf(await store.claim(claimOf('k1', 'f2', 1000)));
      expect(await store.claim(claimOf('k1', 'f3', 1001))).to.deep.equal({ kind: 'in-progress', fingerprint: 'f2' });
    });

    it('lets a new claim take over a request in progress whose lease has run out', async () => {
      await store.claim(claimOf('k1', 'f1'));
      expect(await store.claim(claimOf('k1', 'f1', 99))).to.deep.equal({ kind: 'in-progress', fingerprint: 'f1' });
      tokenOf(await store.claim(claimOf('k1', 'f2', 100)));
      expect(await store.claim(claimOf('k1', 'f1', 101))).to.deep.equal({ kind: 'in-progress', fingerprint: 'f2' });
    });

    it('lets only the claim that holds the record complete or release it', async () => {
      const abandoned = tokenOf(await store.claim(claimOf('k1', 'f1')));
      const takeover = tokenOf(await store.claim(claimOf('k1', 'f2', 100)));
      expect(takeover).not.to.equal(abandoned);
      expect(await complete('k1', abandoned, 'late'), 'the abandoned claim creates nothing').to.equal(undefined);
      await store.release({ scope: 'caller-a', key: 'k1' }, abandoned);
      expect(await store.claim(claimOf('k1', 'f3', 150))).to.deep.equal({ kind: 'in-progress', fingerprint: 'f2' });
      const pet = await complete('k1', takeover, 'holder');
      expect(await store.claim(claimOf('k1', 'f3', 160))).to.deep.equal({ kind: 'completed', fingerprint: 'f2', pet });
    });

    it('frees a released claim at once, but never a completed record', async () => {
      const first = tokenOf(await store.claim(claimOf('k1')));
      await store.release({ scope: 'caller-a', key: 'k1' }, first);
      const second = tokenOf(await store.claim(claimOf('k1', 'f2', 1)));
      await complete('k1', second, 'two');
      await store.release({ scope: 'caller-a', key: 'k1' }, second);
      expect(await store.claim(claimOf('k1', 'f2', 2))).to.deep.include({ kind: 'completed' });
    });

    it('grants exactly one of many concurrent claims of one key', async () => {
      const answers = await Promise.all(Array.from({ length: 20 }, () => store.claim(claimOf('race'))));
      expect(answers.filter((a) => a.kind === 'claimed')).to.have.length(1);
      expect(answers.filter((a) => a.kind === 'in-progress')).to.have.length(19);
    });

    it('keeps keys verbatim: case, spaces and punctuation make different keys', async () => {
      for (const key of ['Key', 'key', ' key', 'key ', "k'); DROP TABLE idempotency_keys;--"]) {
        expect((await store.claim(claimOf(key))).kind, key).to.equal('claimed');
      }
    });
  });
}
