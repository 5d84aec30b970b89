// The rule `registered` (PETSTORE_CATEGORIES=registered) on every PetRepository adapter: a
// write stores a pet only in a category that exists, checked in the write's own transaction.
import { expect } from 'chai';
import * as O from 'fp-ts/lib/Option.js';
import { type CategoryId, type CategoryName, UnknownCategoryError } from '../../src/domain/index.js';
import type { CategoryStorage } from '../support/category-storage.js';
import type { OpenAdapter } from '../support/every-storage.js';
import { draft } from './pet-repository.contract.js';

/** What `write` rejected with, or a failure when it did not. */
export async function rejection(write: Promise<unknown>): Promise<unknown> {
  return write.then(
    () => expect.fail('the write was stored'),
    (fault: unknown) => fault,
  );
}

export function registeredCategoriesContract(adapterName: string, open: OpenAdapter<CategoryStorage>): void {
  describe(`PetRepository with registered categories: ${adapterName}`, () => {
    let storage: CategoryStorage;
    let close: () => Promise<void>;
    let known: CategoryId;
    beforeEach(async () => {
      ({ adapter: storage, close } = await open());
      const outcome = await storage.categories.create('Dogs' as CategoryName);
      if (outcome.kind !== 'created') throw new Error('Dogs was not created');
      known = outcome.category.id;
    });
    afterEach(async () => close());

    const unknown = () => (known + 1000) as CategoryId;
    const petEvents = async () =>
      (await storage.outbox.read('test', 100)).events.filter((event) => event.type.startsWith('petstore.pet.')).length;

    it('creates a pet in a category that exists, and refuses one in a category that does not, storing nothing', async () => {
      const rex = await storage.pets.create(draft('Rex', 'available', known), 'registered');
      expect(rex.categoryId).to.equal(known);
      const fault = await rejection(storage.pets.create(draft('Tom', 'available', unknown()), 'registered'));
      expect(fault).to.be.instanceOf(UnknownCategoryError).and.include({ categoryId: unknown() });
      expect((await storage.pets.list({ limit: 10 })).map((pet) => pet.name)).to.deep.equal(['Rex']);
      expect(await petEvents()).to.equal(1);
    });

    it('takes any category under the rule open, as without a rule', async () => {
      await storage.pets.create(draft('Rex', 'available', unknown()), 'open');
      await storage.pets.create(draft('Tom', 'available', unknown()));
      expect((await storage.pets.list({ limit: 10 })).map((pet) => pet.categoryId)).to.deep.equal([unknown(), unknown()]);
    });

    it('refuses an update that moves a pet to a category that does not exist, and changes nothing', async () => {
      const rex = await storage.pets.create(draft('Rex', 'available', known));
      const fault = await rejection(storage.pets.update(rex.id, 1, draft('Rex', 'available', unknown()), 'registered'));
      expect(fault).to.be.instanceOf(UnknownCategoryError);
      expect(await storage.pets.findVersioned(rex.id)).to.deep.equal(O.some({ pet: rex, version: 1 }));
    });

    it('updates a pet of a category that has no record when the change keeps its category, and answers none at another version', async () => {
      const old = await storage.pets.create(draft('Old', 'available', unknown()));
      const renamed = await storage.pets.update(old.id, 1, draft('Older', 'available', unknown()), 'registered');
      expect(O.map(({ version }: { version: number }) => version)(renamed)).to.deep.equal(O.some(2));
      expect(await storage.pets.update(old.id, 1, draft('Oldest', 'available', known), 'registered')).to.deep.equal(O.none);
      expect(await storage.pets.update(old.id, 1, draft('Oldest', 'available', unknown()), 'registered')).to.deep.equal(O.none);
    });

    it('moves a pet into a category that exists', async () => {
      const old = await storage.pets.create(draft('Old', 'available', unknown()));
      const moved = await storage.pets.update(old.id, 1, draft('Old', 'available', known), 'registered');
      expect(O.map(({ pet }: { pet: { categoryId: number } }) => pet.categoryId)(moved)).to.deep.equal(O.some(known));
    });
  });
}
