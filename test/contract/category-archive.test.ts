// StoreArchive's categories (export format 4) on every storage: written with their own ids and
// versions, read back in id order, a name another category holds refused as a conflict, and the
// categories' sequence continued past every written id.
import { expect } from 'chai';
import * as O from 'fp-ts/lib/Option.js';
import { MemoryApiKeyStore } from '../../src/adapters/memory/memory-api-key-store.js';
import { MemoryCategoryRepository } from '../../src/adapters/memory/memory-category-repository.js';
import { MemoryIdempotencyStore } from '../../src/adapters/memory/memory-idempotency-store.js';
import { MemoryOrderRepository } from '../../src/adapters/memory/memory-order-repository.js';
import { MemoryPetRepository } from '../../src/adapters/memory/memory-pet-repository.js';
import { MemoryStoreArchive } from '../../src/adapters/memory/memory-archive.js';
import { PostgresStoreArchive } from '../../src/adapters/postgres/postgres-archive.js';
import { PostgresCategoryRepository } from '../../src/adapters/postgres/postgres-category-repository.js';
import { SqliteStoreArchive } from '../../src/adapters/sqlite/sqlite-archive.js';
import { SqliteCategoryRepository } from '../../src/adapters/sqlite/sqlite-category-repository.js';
import type { ArchivedCategory, CategoryId, CategoryName, CategoryRepository, StoreArchive } from '../../src/domain/index.js';
import { forEveryStorage } from '../support/every-storage.js';

interface Stores {
  readonly archive: StoreArchive;
  readonly categories: CategoryRepository;
}

const category = (id: number, name: string, version = 1): ArchivedCategory => ({
  id: id as CategoryId,
  name: name as CategoryName,
  version,
});

forEveryStorage<Stores>(
  {
    memory: () => {
      const records = new MemoryIdempotencyStore();
      const pets = new MemoryPetRepository(records);
      const categories = new MemoryCategoryRepository(pets);
      return {
        archive: new MemoryStoreArchive(pets, new MemoryApiKeyStore(), records, new MemoryOrderRepository(pets), categories),
        categories,
      };
    },
    sqlite: (db) => ({ archive: new SqliteStoreArchive(db), categories: new SqliteCategoryRepository(db) }),
    postgres: (pool) => ({ archive: new PostgresStoreArchive(pool), categories: new PostgresCategoryRepository(pool) }),
  },
  (name, open) =>
    describe(`StoreArchive categories: ${name}`, () => {
      let stores: Stores;
      let close: () => Promise<void>;
      beforeEach(async () => ({ adapter: stores, close } = await open()));
      afterEach(() => close());

      it('writes categories with their ids and versions, reads them in id order, page after page; writing again changes nothing', async () => {
        const written = [category(7, 'Dogs', 3), category(2, 'Cats'), category(40, 'Birds', 2)];
        expect(await stores.archive.categories.write(written)).to.deep.equal({ kind: 'written', written: 3 });
        expect(await stores.archive.categories.write(written.slice(1))).to.deep.equal({ kind: 'written', written: 0 });
        expect(await stores.archive.categories.count()).to.equal(3);
        const first = await stores.archive.categories.read(undefined, 2);
        expect(first).to.deep.equal([category(2, 'Cats'), category(7, 'Dogs', 3)]);
        expect(await stores.archive.categories.read(first[1], 2)).to.deep.equal([category(40, 'Birds', 2)]);
        // The repository sees each at its version, and its name as taken.
        expect(await stores.categories.findVersioned(7 as CategoryId)).to.deep.equal(
          O.some({ category: { id: 7, name: 'Dogs' }, version: 3 }),
        );
        expect((await stores.categories.create('DOGS' as CategoryName)).kind).to.equal('name_taken');
        expect(await stores.archive.snapshot((snapshot) => snapshot.categories.read(undefined, 10))).to.deep.equal(
          [2, 7, 40].map((id) => written.find((c) => c.id === id)),
        );
      });

      it('refuses, writing nothing of the batch, a category whose id or name (whatever its case) another one has', async () => {
        await stores.archive.categories.write([category(1, 'Dogs')]);
        for (const refused of [category(1, 'Hounds'), category(5, 'dOGS')]) {
          expect(await stores.archive.categories.write([category(9, 'Fish'), refused])).to.deep.equal({
            kind: 'conflict',
            conflicting: [refused],
          });
        }
        expect(await stores.archive.categories.count()).to.equal(1);
      });

      it('continues the sequence: the next category created gets an id above every written one', async () => {
        await stores.archive.categories.write([category(12, 'Dogs')]);
        await stores.archive.continueSequences();
        const created = await stores.categories.create('Cats' as CategoryName);
        expect(created.kind === 'created' && created.category.id).to.equal(13);
      });
    }),
);
