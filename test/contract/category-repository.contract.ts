// The behaviour every CategoryRepository adapter must have. The memory adapter is its
// reference; each adapter runs this same suite (see category-repository.test.ts).
import { expect } from 'chai';
import * as O from 'fp-ts/lib/Option.js';
import type { Category, CategoryId, CategoryName, CategoryRepository, PetRepository } from '../../src/domain/index.js';
import type { CategoryStorage } from '../support/category-storage.js';
import type { OpenAdapter } from '../support/every-storage.js';
import { draft } from './pet-repository.contract.js';

const name = (text: string) => text as CategoryName;
const id = (n: number) => n as CategoryId;

async function created(categories: CategoryRepository, text: string): Promise<Category> {
  const outcome = await categories.create(name(text));
  if (outcome.kind !== 'created') throw new Error(`${text} was not created`);
  return outcome.category;
}

export function categoryRepositoryContract(adapterName: string, open: OpenAdapter<CategoryStorage>): void {
  describe(`CategoryRepository contract: ${adapterName}`, () => {
    let storage: CategoryStorage;
    let categories: CategoryRepository;
    let pets: PetRepository;
    let close: () => Promise<void>;
    beforeEach(async () => {
      ({ adapter: storage, close } = await open());
      ({ categories, pets } = storage);
    });
    afterEach(async () => close());

    const eventTypes = async () => (await storage.outbox.read('test', 100)).events.map((event) => [event.type, event.petId, event.data]);

    it('creates a category at its first version, with its event', async () => {
      const dogs = await created(categories, 'Dogs');
      expect(dogs).to.deep.equal({ id: dogs.id, name: 'Dogs' });
      expect(await categories.findVersioned(dogs.id)).to.deep.equal(O.some({ category: dogs, version: 1 }));
      expect(await categories.exists(dogs.id)).to.equal(true);
      expect(await categories.exists(id(dogs.id + 1))).to.equal(false);
      expect(await eventTypes()).to.deep.equal([['petstore.category.created', dogs.id, { id: dogs.id, name: 'Dogs' }]]);
    });

    it('refuses a name another category has, whatever the case, and records nothing for it', async () => {
      await created(categories, 'Dogs');
      for (const taken of ['Dogs', 'DOGS', 'dogs']) expect(await categories.create(name(taken))).to.deep.equal({ kind: 'name_taken' });
      await created(categories, 'Straße');
      expect(await categories.create(name('STRASSE'))).to.deep.equal({ kind: 'name_taken' });
      expect(await categories.create(name('Stra\u0073\u0073e'))).to.deep.equal({ kind: 'name_taken' });
      expect((await categories.list({ limit: 10 })).map((c) => c.name)).to.deep.equal(['Dogs', 'Straße']);
      expect(await eventTypes()).to.have.length(2);
    });

    it('lets exactly one of many concurrent creates of one name through', async () => {
      const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => categories.create(name(i % 2 === 0 ? 'Cats' : 'CATS'))));
      expect(outcomes.filter((outcome) => outcome.kind === 'created')).to.have.length(1);
      expect(await categories.list({ limit: 10 })).to.have.length(1);
    });

    it('gives a new category an id above every categoryId of a pet and every id a category had', async () => {
      await pets.create(draft('Rex', 'available', 41));
      const first = await created(categories, 'First');
      expect(first.id).to.equal(42);
      const { id: secondId } = await created(categories, 'Second');
      expect(await categories.remove(id(secondId), 1)).to.equal('removed');
      expect((await created(categories, 'Third')).id).to.be.greaterThan(secondId);
    });

    it('lists categories in id order, a page after another', async () => {
      const all = [];
      for (const text of ['a', 'b', 'c', 'd', 'e']) all.push(await created(categories, text));
      expect(await categories.list({ limit: 2 })).to.deep.equal(all.slice(0, 2));
      expect(await categories.list({ limit: 2, afterId: all[1]!.id })).to.deep.equal(all.slice(2, 4));
      expect(await categories.list({ limit: 10, afterId: all[4]!.id })).to.deep.equal([]);
    });

    it('renames at a version: a new version, its event; another version changes nothing; a taken name is refused', async () => {
      const dogs = await created(categories, 'Dogs');
      const cats = await created(categories, 'Cats');
      expect(await categories.rename(dogs.id, 2, name('Hounds'))).to.deep.equal({ kind: 'changed' });
      expect(await categories.rename(dogs.id, 1, name('CATS'))).to.deep.equal({ kind: 'name_taken' });
      const renamed = { category: { id: dogs.id, name: 'DOGS' }, version: 2 };
      expect(await categories.rename(dogs.id, 1, name('DOGS')), 'its own name in another case').to.deep.equal({
        kind: 'renamed',
        category: renamed,
      });
      expect(await categories.findVersioned(dogs.id)).to.deep.equal(O.some(renamed));
      expect(await categories.rename(id(cats.id + 100), 1, name('x'))).to.deep.equal({ kind: 'changed' });
      expect((await eventTypes()).at(-1)).to.deep.equal(['petstore.category.updated', dogs.id, { id: dogs.id, name: 'DOGS' }]);
    });

    it('deletes a category at its version while no pet is in it; frees its name', async () => {
      const dogs = await created(categories, 'Dogs');
      const pet = await pets.create(draft('Rex', 'available', dogs.id));
      expect(await categories.remove(dogs.id, 2)).to.equal('changed');
      expect(await categories.remove(dogs.id, 1)).to.equal('in_use');
      expect(await pets.remove(pet.id, 1)).to.equal(true);
      expect(await categories.remove(dogs.id, 1)).to.equal('removed');
      expect(await categories.remove(dogs.id, 1)).to.equal('changed');
      expect(await categories.findVersioned(dogs.id)).to.deep.equal(O.none);
      expect((await eventTypes()).at(-1)).to.deep.equal(['petstore.category.deleted', dogs.id, { id: dogs.id }]);
      expect((await categories.create(name('dogs'))).kind).to.equal('created');
    });

    it('registers every category pets use and none has, once, as Category <id>', async () => {
      const dogs = await created(categories, 'Dogs');
      await created(categories, 'category 9');
      for (const categoryId of [7, dogs.id, -3, 7, 9]) await pets.create(draft('pet', 'available', categoryId));
      const first = await categories.registerUsed();
      expect(first).to.deep.equal({
        registered: [
          { id: -3, name: 'Category -3' },
          { id: 7, name: 'Category 7' },
        ],
        nameTaken: [9],
      });
      expect(await categories.registerUsed()).to.deep.equal({ registered: [], nameTaken: [9] });
      expect(await categories.findVersioned(id(7))).to.deep.equal(O.some({ category: { id: 7, name: 'Category 7' }, version: 1 }));
      expect((await created(categories, 'Next')).id).to.be.greaterThan(9);
    });

    it('lists the pets of a category, alone or with a status, a page after another', async () => {
      const made = [];
      for (let i = 0; i < 12; i += 1) made.push(await pets.create(draft(`pet ${i}`, i % 3 === 0 ? 'sold' : 'available', i % 2)));
      const ofOne = made.filter((pet) => pet.categoryId === 1);
      expect(await pets.list({ limit: 3, categoryId: id(1) })).to.deep.equal(ofOne.slice(0, 3));
      expect(await pets.list({ limit: 10, categoryId: id(1), afterId: ofOne[2]!.id })).to.deep.equal(ofOne.slice(3));
      const soldOfOne = ofOne.filter((pet) => pet.status === 'sold');
      expect(await pets.list({ limit: 10, categoryId: id(1), status: 'sold' })).to.deep.equal(soldOfOne);
      expect(await pets.list({ limit: 1, categoryId: id(1), status: 'sold', afterId: soldOfOne[0]!.id })).to.deep.equal(
        soldOfOne.slice(1, 2),
      );
      expect(await pets.list({ limit: 10, categoryId: id(5) })).to.deep.equal([]);
    });
  });
}
