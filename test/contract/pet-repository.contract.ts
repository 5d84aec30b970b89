// The behaviour every PetRepository adapter must have. The memory adapter is its reference;
// each adapter runs this same suite (see pet-repository.test.ts).
import { expect } from 'chai';
import * as O from 'fp-ts/lib/Option.js';
import { petChangesContract } from './pet-changes.contract.js';
import type {
  CategoryId,
  IdempotencyHold,
  IdempotencyStore,
  Limit,
  PetDraft,
  PetId,
  PetName,
  PetRepository,
  PetStatus,
} from '../../src/domain/index.js';

export interface RepositoryUnderTest {
  readonly repository: PetRepository;
  /** The idempotency records of the same storage, which createCompleting completes. */
  readonly store: IdempotencyStore;
  /** Releases what the adapter holds (database handles, files). */
  close(): Promise<void>;
}

export const draft = (name: string, status: PetStatus = 'available', categoryId = 1): PetDraft => ({
  name: name as PetName,
  categoryId: categoryId as CategoryId,
  status,
});

/** A claim of `key` by the caller "caller" at `at`, leased 100 ms, as the store answers it. */
const claimOf = (store: IdempotencyStore, key: string, at: Date) =>
  store.claim({
    scope: 'caller',
    key,
    fingerprint: 'f',
    now: at,
    expiresAt: new Date(at.getTime() + 60_000),
    leaseExpiresAt: new Date(at.getTime() + 100),
  });

/** A claim of `key` by the caller "caller" at `at`, leased 100 ms: the hold it grants (the claim must be granted). */
export async function claimHold(store: IdempotencyStore, key: string, at: Date): Promise<IdempotencyHold> {
  const claim = await claimOf(store, key, at);
  expect(claim.kind, `claim of ${key}`).to.equal('claimed');
  return { scope: 'caller', key, token: (claim as { token: string }).token };
}

const limit = (n: number) => n as Limit;

export function petRepositoryContract(adapterName: string, open: () => Promise<RepositoryUnderTest>): void {
  describe(`PetRepository contract: ${adapterName}`, () => {
    let subject: RepositoryUnderTest;
    let repo: PetRepository;
    beforeEach(async () => {
      subject = await open();
      repo = subject.repository;
    });
    afterEach(async () => subject.close());

    petChangesContract(() => repo);

    it('assigns each created pet a new positive id, larger than every earlier one', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 5; i += 1) ids.push((await repo.create(draft(`pet ${i}`))).id);
      expect(ids[0]).to.be.greaterThan(0);
      for (let i = 1; i < ids.length; i += 1) expect(ids[i]).to.be.greaterThan(ids[i - 1]!);
    });

    it('returns the created pet with the fields it was given', async () => {
      const created = await repo.create(draft('Rex', 'pending', 42));
      expect(created).to.deep.equal({ id: created.id, name: 'Rex', categoryId: 42, status: 'pending' });
    });

    it('finds a created pet by its id, unchanged', async () => {
      const created = await repo.create(draft('Mittens', 'sold', -7));
      expect(await repo.findById(created.id)).to.deep.equal(O.some(created));
    });

    it('finds nothing for an id no pet has', async () => {
      const created = await repo.create(draft('Only'));
      expect(await repo.findById((created.id + 1000) as PetId)).to.deep.equal(O.none);
    });

    it('keeps names verbatim: Unicode, quotes, SQL-looking text, surrounding spaces', async () => {
      const names = ["Robert'); DROP TABLE pets;--", '  spaced  ', 'Ünïcödé 🐕‍🦺 名前', '"quoted" \\ back\\slash', '%_ like'];
      for (const name of names) {
        const created = await repo.create(draft(name));
        expect(O.map((p: { name: string }) => p.name)(await repo.findById(created.id))).to.deep.equal(O.some(name));
      }
    });

    it('keeps category ids exactly across the whole safe-integer range', async () => {
      for (const categoryId of [Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 0]) {
        const created = await repo.create(draft('edge', 'available', categoryId));
        const found = await repo.findById(created.id);
        expect(O.isSome(found) && found.value.categoryId).to.equal(categoryId);
      }
    });

    it('lists nothing when there are no pets', async () => {
      expect(await repo.list({ limit: limit(20) })).to.deep.equal([]);
    });

    it('lists pets in ascending id order, at most `limit` of them, from the first', async () => {
      const created = [];
      for (let i = 0; i < 7; i += 1) created.push(await repo.create(draft(`p${i}`)));
      expect(await repo.list({ limit: limit(100) })).to.deep.equal(created);
      expect(await repo.list({ limit: limit(3) })).to.deep.equal(created.slice(0, 3));
      expect(await repo.list({ limit: limit(1) })).to.deep.equal(created.slice(0, 1));
    });

    it('filters by status, still in ascending id order and within the limit', async () => {
      const statuses: PetStatus[] = ['sold', 'available', 'sold', 'pending', 'sold', 'available', 'sold'];
      const created = [];
      for (const [i, status] of statuses.entries()) created.push(await repo.create(draft(`p${i}`, status)));
      const sold = created.filter((p) => p.status === 'sold');
      expect(await repo.list({ limit: limit(100), status: 'sold' })).to.deep.equal(sold);
      expect(await repo.list({ limit: limit(2), status: 'sold' })).to.deep.equal(sold.slice(0, 2));
      expect(await repo.list({ limit: limit(100), status: 'pending' })).to.deep.equal(created.filter((p) => p.status === 'pending'));
    });

    it('resumes strictly after a given id, with and without the status filter', async () => {
      const statuses: PetStatus[] = ['sold', 'available', 'sold', 'sold', 'pending', 'sold'];
      const created = [];
      for (const [i, status] of statuses.entries()) created.push(await repo.create(draft(`p${i}`, status)));
      const [first, second, third] = created;
      expect(await repo.list({ limit: 100, afterId: second!.id })).to.deep.equal(created.slice(2));
      expect(await repo.list({ limit: 2, afterId: first!.id })).to.deep.equal(created.slice(1, 3));
      const soldAfterThird = created.slice(3).filter((p) => p.status === 'sold');
      expect(await repo.list({ limit: 100, status: 'sold', afterId: third!.id })).to.deep.equal(soldAfterThird);
      // An id that no pet has (deleted, or between two ids) is a position all the same.
      expect(await repo.list({ limit: 100, afterId: (created[5]!.id + 10) as PetId })).to.deep.equal([]);
      expect(await repo.list({ limit: 100, afterId: 0 as PetId })).to.deep.equal(created);
    });

    it('lists nothing for a status no pet has', async () => {
      await repo.create(draft('a', 'available'));
      expect(await repo.list({ limit: limit(20), status: 'sold' })).to.deep.equal([]);
    });

    it('gives distinct ids to concurrent creates and loses none of them', async () => {
      const created = await Promise.all(Array.from({ length: 50 }, (_, i) => repo.create(draft(`c${i}`))));
      expect(new Set(created.map((p) => p.id)).size).to.equal(50);
      const listed = await repo.list({ limit: limit(100) });
      expect(listed.map((p) => p.name).sort()).to.deep.equal(created.map((p) => p.name).sort());
    });

    it('does not let a caller change stored pets through a returned object or list', async () => {
      const created = await repo.create(draft('Original'));
      const tamper = (f: () => void) => {
        try {
          f();
        } catch {
          // a frozen object refuses the change: that is fine too
        }
      };
      tamper(() => ((created as { name: string }).name = 'Changed'));
      const listed = await repo.list({ limit: limit(10) });
      tamper(() => ((listed as Array<unknown>).length = 0));
      tamper(() => ((listed[0] as { status: string }).status = 'sold'));
      expect(await repo.list({ limit: limit(10) })).to.deep.equal([
        { id: created.id, name: 'Original', categoryId: 1, status: 'available' },
      ]);
    });

    describe('createCompleting: a pet stored with the completion of an idempotency record', () => {
      const now = new Date('2030-01-01T00:00:00Z');
      const hold = (key: string, at = now): Promise<IdempotencyHold> => claimHold(subject.store, key, at);
      const claimAgain = (key: string, at: Date) => claimOf(subject.store, key, at);

      it('stores the pet, in the id order of every other, and completes the record with it', async () => {
        const before = await repo.create(draft('before'));
        const created = await repo.createCompleting(draft('Once', 'pending', 7), await hold('k1'));
        expect(O.isSome(created)).to.equal(true);
        const pet = (created as O.Some<typeof before>).value;
        expect(pet).to.deep.equal({ id: pet.id, name: 'Once', categoryId: 7, status: 'pending' });
        expect(pet.id).to.be.greaterThan(before.id);
        expect(await repo.findById(pet.id)).to.deep.equal(O.some(pet));
        const replayed = await claimAgain('k1', new Date(now.getTime() + 1000));
        expect(replayed).to.deep.equal({ kind: 'completed', fingerprint: 'f', pet });
        // A replay answers the same bytes as the create: the interface's order of the keys.
        expect(JSON.stringify((replayed as { pet: unknown }).pet)).to.equal(JSON.stringify(pet));
      });

      it('stores nothing, and answers none, when the hold no longer holds the record', async () => {
        const released = await hold('k1');
        await subject.store.release(released, released.token);
        expect(await repo.createCompleting(draft('Released'), released)).to.deep.equal(O.none);
        const abandoned = await hold('k2');
        const takenOver = await hold('k2', new Date(now.getTime() + 100));
        expect(await repo.createCompleting(draft('Abandoned'), abandoned)).to.deep.equal(O.none);
        expect(await repo.list({ limit: limit(10) }), 'nothing was stored').to.deep.equal([]);
        expect(O.isSome(await repo.createCompleting(draft('Holder'), takenOver))).to.equal(true);
      });

      it('stores one pet for one hold, however many concurrent calls use it', async () => {
        const key = await hold('race');
        const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => repo.createCompleting(draft(`race ${i}`), key)));
        expect(answers.filter(O.isSome)).to.have.length(1);
        expect(await repo.list({ limit: limit(10) })).to.have.length(1);
      });
    });
  });
}
