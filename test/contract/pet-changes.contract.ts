// The behaviour of PetRepository for pets that change (interface 1.1): versions, compare-and-set
// updates and deletions, and the status transitions of the domain held on every adapter
// through the use cases that change pets. Part of petRepositoryContract.
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import {
  deletePet,
  type Limit,
  PET_STATUSES,
  type PetId,
  type PetName,
  type PetRepository,
  type PetStatus,
  statusesAllowedFrom,
  updatePet,
} from '../../src/domain/index.js';
import { draft } from './pet-repository.contract.js';

const limit = (n: number) => n as Limit;

/** The tests of pets that change, inside petRepositoryContract's describe, on the adapter it opened for each test. */
export function petChangesContract(repository: () => PetRepository): void {
  describe('pets that change', () => {
    let repo: PetRepository;
    beforeEach(() => {
      repo = repository();
    });

    it('gives a new pet version 1, and finds nothing for an id no pet has', async () => {
      const created = await repo.create(draft('Rex'));
      expect(await repo.findVersioned(created.id)).to.deep.equal(O.some({ pet: created, version: 1 }));
      expect(await repo.findVersioned((created.id + 1) as PetId)).to.deep.equal(O.none);
    });

    it('updates a pet at its version: the new fields, one more version, seen by every read', async () => {
      const created = await repo.create(draft('Rex'));
      const changed = draft('Rex II', 'pending', 9);
      const updated = await repo.update(created.id, 1, changed);
      const expected = { pet: { id: created.id, ...changed }, version: 2 };
      expect(updated).to.deep.equal(O.some(expected));
      expect(await repo.findVersioned(created.id)).to.deep.equal(O.some(expected));
      expect(await repo.findById(created.id)).to.deep.equal(O.some(expected.pet));
      expect(await repo.list({ limit: limit(10) })).to.deep.equal([expected.pet]);
      expect(await repo.list({ limit: limit(10), status: 'pending' })).to.deep.equal([expected.pet]);
      expect(await repo.list({ limit: limit(10), status: 'available' })).to.deep.equal([]);
      expect(O.map((v: { version: number }) => v.version)(await repo.update(created.id, 2, draft('Rex III')))).to.deep.equal(O.some(3));
    });

    it("changes nothing and answers none for a version that is not the pet's, or a missing pet", async () => {
      const created = await repo.create(draft('Rex'));
      expect(await repo.update(created.id, 2, draft('Other'))).to.deep.equal(O.none);
      expect(await repo.update((created.id + 1) as PetId, 1, draft('Other'))).to.deep.equal(O.none);
      expect(await repo.remove(created.id, 2)).to.equal(false);
      expect(await repo.remove((created.id + 1) as PetId, 1)).to.equal(false);
      expect(await repo.findVersioned(created.id)).to.deep.equal(O.some({ pet: created, version: 1 }));
    });

    it('lets exactly one of many concurrent updates at one version through', async () => {
      const created = await repo.create(draft('Rex'));
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => repo.update(created.id, 1, draft(`name ${i}`))));
      const won = results.filter(O.isSome);
      expect(won).to.have.length(1);
      expect(await repo.findVersioned(created.id)).to.deep.equal(won[0]);
    });

    it('removes a pet at its version: gone from every read and every page after it; its id never comes back', async () => {
      const pets = [];
      for (let i = 0; i < 5; i += 1) pets.push(await repo.create(draft(`pet ${i}`)));
      const gone = pets[2]!;
      expect(await repo.remove(gone.id, 1)).to.equal(true);
      expect(await repo.remove(gone.id, 1), 'a second removal').to.equal(false);
      expect(await repo.findById(gone.id)).to.deep.equal(O.none);
      expect(await repo.findVersioned(gone.id)).to.deep.equal(O.none);
      const rest = pets.filter((p) => p.id !== gone.id);
      expect(await repo.list({ limit: limit(10) })).to.deep.equal(rest);
      expect(await repo.list({ limit: limit(10), afterId: pets[1]!.id })).to.deep.equal(rest.slice(2));
      expect(await repo.list({ limit: limit(10), afterId: gone.id }), 'paging on from the deleted id').to.deep.equal(rest.slice(2));
      expect(await repo.list({ limit: limit(10), status: 'available', afterId: pets[0]!.id })).to.deep.equal(rest.slice(1));
      expect(await repo.update(gone.id, 1, draft('Back'))).to.deep.equal(O.none);
      // Removing the newest pet too: the next id is still beyond every id ever given.
      const last = pets[4]!;
      expect(await repo.remove(last.id, 1)).to.equal(true);
      const next = await repo.create(draft('next'));
      expect(next.id).to.be.greaterThan(last.id);
    });

    it('removes a changed pet only at its new version', async () => {
      const created = await repo.create(draft('Rex'));
      await repo.update(created.id, 1, draft('Rex', 'pending'));
      expect(await repo.remove(created.id, 1)).to.equal(false);
      expect(await repo.remove(created.id, 2)).to.equal(true);
    });

    describe('the status transitions, through updatePet', () => {
      for (const from of PET_STATUSES) {
        for (const to of PET_STATUSES) {
          const allowed = from === to || statusesAllowedFrom(from).includes(to);
          it(`${allowed ? 'allows' : 'refuses'} ${from} -> ${to}`, async () => {
            const created = await repo.create(draft('Rex', from));
            const result = await updatePet(repo)({ id: created.id, patch: { status: to }, expected: 'any' })();
            const stored = await repo.findVersioned(created.id);
            if (allowed) {
              // The same status is no change: nothing is written and the version stays.
              const version = from === to ? 1 : 2;
              expect(result).to.deep.equal(E.right({ pet: { ...created, status: to }, version }));
              expect(stored).to.deep.equal(O.some({ pet: { ...created, status: to }, version }));
            } else {
              expect(result).to.deep.equal(
                E.left({ code: 'invalid_transition', petId: String(created.id), from, to, allowed: statusesAllowedFrom(from) }),
              );
              expect(stored, 'nothing changed').to.deep.equal(O.some({ pet: created, version: 1 }));
            }
          });
        }
      }

      it('keeps sold final, and a pet may go available -> pending -> available -> sold', async () => {
        const created = await repo.create(draft('Rex'));
        const move = (status: PetStatus) => updatePet(repo)({ id: created.id, patch: { status }, expected: 'any' })();
        for (const status of ['pending', 'available', 'sold'] as const) expect(E.isRight(await move(status)), status).to.equal(true);
        for (const status of ['available', 'pending'] as const) expect(E.isLeft(await move(status)), status).to.equal(true);
        expect(await repo.findVersioned(created.id)).to.deep.equal(O.some({ pet: { ...created, status: 'sold' }, version: 4 }));
      });
    });

    describe('conditional changes, through updatePet and deletePet', () => {
      it('changes only at an expected version, and fails the precondition otherwise, changing nothing', async () => {
        const created = await repo.create(draft('Rex'));
        const rename = (name: string, expected: readonly number[] | 'any') =>
          updatePet(repo)({ id: created.id, patch: { name: name as PetName }, expected })();
        expect(await rename('Two', [2, 3])).to.deep.equal(
          E.left({ code: 'precondition_failed', petId: String(created.id), failed: 'expected' }),
        );
        expect(await rename('Two', [])).to.deep.equal(
          E.left({ code: 'precondition_failed', petId: String(created.id), failed: 'expected' }),
        );
        expect(E.isRight(await rename('Two', [5, 1]))).to.equal(true);
        expect(await deletePet(repo)({ id: created.id, expected: [1] })()).to.deep.equal(
          E.left({ code: 'precondition_failed', petId: String(created.id), failed: 'expected' }),
        );
        expect(await deletePet(repo)({ id: created.id, expected: [2] })()).to.deep.equal(E.right(undefined));
        expect(await deletePet(repo)({ id: created.id, expected: 'any' })()).to.deep.equal(
          E.left({ code: 'pet_not_found', petId: String(created.id) }),
        );
      });

      it('stores nothing for a patch that changes nothing, at any version', async () => {
        const created = await repo.create(draft('Rex'));
        const same = await updatePet(repo)({ id: created.id, patch: { name: 'Rex' as PetName }, expected: 'any' })();
        expect(same).to.deep.equal(E.right({ pet: created, version: 1 }));
        expect(await updatePet(repo)({ id: created.id, patch: {}, expected: [1] })()).to.deep.equal(E.right({ pet: created, version: 1 }));
      });
    });
  });
}
