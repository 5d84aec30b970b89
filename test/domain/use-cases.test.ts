// The use cases over the reference (memory) adapter: their results as Either values.
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { MemoryIdempotencyStore } from '../../src/adapters/memory/memory-idempotency-store.js';
import { MemoryPetRepository } from '../../src/adapters/memory/memory-pet-repository.js';
import {
  type CategoryId,
  createPet,
  createPetOnce,
  DEFAULT_LIMIT,
  deletePet,
  type IdempotencyKey,
  idempotencyKeyInUse,
  getPet,
  type Limit,
  listPets,
  type PetId,
  type PetName,
  updatePet,
} from '../../src/domain/index.js';

const newPet = (name: string, status?: 'available' | 'pending' | 'sold') => ({
  name: name as PetName,
  categoryId: 3 as CategoryId,
  ...(status === undefined ? {} : { status }),
});

describe('use cases', () => {
  let repo: MemoryPetRepository;
  beforeEach(() => {
    repo = new MemoryPetRepository();
  });

  it('createPet makes a pet available when no status is given, and keeps a given one', async () => {
    const plain = await createPet(repo)(newPet('Plain'))();
    const sold = await createPet(repo)(newPet('Sold', 'sold'))();
    expect(E.isRight(plain) && plain.right.status).to.equal('available');
    expect(E.isRight(sold) && sold.right.status).to.equal('sold');
  });

  it('getPet returns the pet, or PetNotFound naming the id', async () => {
    const created = await createPet(repo)(newPet('Rex'))();
    if (E.isLeft(created)) throw new Error('create failed');
    expect(await getPet(repo)(created.right.id)()).to.deep.equal(E.right(created.right));
    expect(await getPet(repo)(999 as PetId)()).to.deep.equal(E.left({ code: 'pet_not_found', petId: '999' }));
  });

  it('listPets pages with the default limit of 20 and filters by status', async () => {
    for (let i = 0; i < 25; i += 1) await createPet(repo)(newPet(`p${i}`, i % 5 === 0 ? 'pending' : 'available'))();
    const page = await listPets(repo)({ limit: DEFAULT_LIMIT })();
    expect(E.isRight(page) && page.right.pets.length).to.equal(20);
    expect(E.isRight(page) && page.right.hasMore).to.equal(true);
    const pending = await listPets(repo)({ limit: 100 as Limit, status: 'pending' })();
    expect(E.isRight(pending) && pending.right.pets.map((p) => p.name)).to.deep.equal(['p0', 'p5', 'p10', 'p15', 'p20']);
    expect(E.isRight(pending) && pending.right.hasMore).to.equal(false);
  });

  it('listPets says whether more pets follow, exactly at the boundary', async () => {
    for (let i = 0; i < 4; i += 1) await createPet(repo)(newPet(`p${i}`))();
    const exact = await listPets(repo)({ limit: 4 as Limit })();
    expect(E.isRight(exact) && exact.right).to.deep.include({ hasMore: false });
    const short = await listPets(repo)({ limit: 3 as Limit })();
    expect(E.isRight(short) && short.right.hasMore).to.equal(true);
    const rest = await listPets(repo)({ limit: 3 as Limit, afterId: 3 as PetId })();
    expect(E.isRight(rest) && rest.right.pets.map((p) => p.name)).to.deep.equal(['p3']);
    expect(E.isRight(rest) && rest.right.hasMore).to.equal(false);
  });

  it('changes and deletes only under their conditions, telling which one failed', async () => {
    const pet = await repo.create({ name: 'Rex' as PetName, categoryId: 3 as CategoryId, status: 'available' });
    const change = (expected: 'any' | number[], excluded?: 'any' | number[]) =>
      updatePet(repo)({ id: pet.id, patch: { name: 'Two' as PetName }, expected, excluded })();
    expect(await change([2])).to.deep.equal(E.left({ code: 'precondition_failed', petId: String(pet.id), failed: 'expected' }));
    expect(await change('any', [1])).to.deep.equal(E.left({ code: 'precondition_failed', petId: String(pet.id), failed: 'excluded' }));
    expect(await deletePet(repo)({ id: pet.id, expected: 'any', excluded: 'any' })()).to.deep.equal(
      E.left({ code: 'precondition_failed', petId: String(pet.id), failed: 'excluded' }),
    );
    expect(E.isRight(await change([1], [2]))).to.equal(true);
    expect(E.isRight(await deletePet(repo)({ id: pet.id, expected: [2] })())).to.equal(true);
  });

  it('lets an infrastructure fault of the port reject, rather than dress it as a domain result', async () => {
    const broken = { ...repo, list: () => Promise.reject(new Error('disk on fire')) } as unknown as MemoryPetRepository;
    let caught: unknown;
    try {
      await listPets(broken)({ limit: DEFAULT_LIMIT })();
    } catch (err) {
      caught = err;
    }
    expect((caught as Error).message).to.equal('disk on fire');
  });
  describe('createPetOnce', () => {
    const newPetOnce = { name: 'Once' as PetName, categoryId: 3 as CategoryId };
    let now: Date;
    let store: MemoryIdempotencyStore;
    let pets: MemoryPetRepository;
    beforeEach(() => {
      now = new Date('2030-01-01T00:00:00Z');
      store = new MemoryIdempotencyStore();
      pets = new MemoryPetRepository(store);
    });
    const once = () => createPetOnce(pets, store, { now: () => now })({ scope: 'caller', key: 'k' as IdempotencyKey, newPet: newPetOnce });

    it('creates the pet once, and answers the same pet, replayed, to a retry', async () => {
      const first = await once()();
      expect(E.isRight(first) && first.right.replayed).to.equal(false);
      expect(await once()()).to.deep.equal(E.right({ pet: (first as E.Right<{ pet: unknown }>).right.pet, replayed: true }));
      expect(await pets.list({ limit: DEFAULT_LIMIT })).to.have.length(1);
    });

    it('creates nothing when its claim was taken over before it stored the pet, and says the key is in use', async () => {
      const slow = pets.createCompleting.bind(pets);
      // Another request takes the key over while this one is between its claim and its pet.
      pets.createCompleting = async (draft, hold) => {
        now = new Date(now.getTime() + 60_001);
        const takeover = await store.claim({
          scope: 'caller',
          key: 'k',
          fingerprint: 'other',
          now,
          expiresAt: new Date(now.getTime() + 60_000),
          leaseExpiresAt: new Date(now.getTime() + 60_000),
        });
        expect(takeover.kind).to.equal('claimed');
        return slow(draft, hold);
      };
      expect(await once()()).to.deep.equal(E.left(idempotencyKeyInUse));
      expect(await pets.list({ limit: DEFAULT_LIMIT }), 'nothing was stored').to.deep.equal([]);
    });
  });
});
