// The rule `registered` against a concurrent delete of the category, on PostgreSQL: a pet write
// takes the category's row FOR KEY SHARE, the delete takes it FOR UPDATE before it looks for
// pets, so whichever comes second waits for the first and then sees what it did. Each test holds
// one side's transaction open and checks, in pg_locks, that the other side waited for it.
import { expect } from 'chai';
import pg from 'pg';
import { openPostgresPool } from '../../../src/adapters/postgres/create-postgres-pool.js';
import { PostgresCategoryRepository } from '../../../src/adapters/postgres/postgres-category-repository.js';
import { PostgresPetRepository } from '../../../src/adapters/postgres/postgres-pet-repository.js';
import { insertPetsSql } from '../../../src/adapters/postgres/postgres-pet-statements.js';
import { type CategoryId, type CategoryName, UnknownCategoryError } from '../../../src/domain/index.js';
import { draft } from '../../contract/pet-repository.contract.js';
import { rejection } from '../../contract/registered-categories.contract.js';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../../support/postgres.js';
import { someoneWaitsFor } from '../../support/postgres-waits.js';

describeWithPostgres('PostgreSQL: registered categories against a concurrent delete', () => {
  let schema: TestSchema;
  let pool: pg.Pool;
  let other: pg.Client;
  let pets: PostgresPetRepository;
  let categories: PostgresCategoryRepository;
  let category: CategoryId;
  beforeEach(async () => {
    schema = await createTestSchema();
    pool = await openPostgresPool({ url: schema.url, poolSize: 4 });
    other = new pg.Client({ connectionString: schema.url });
    await other.connect();
    pets = new PostgresPetRepository(pool);
    categories = new PostgresCategoryRepository(pool);
    const outcome = await categories.create('Dogs' as CategoryName);
    if (outcome.kind !== 'created') throw new Error('Dogs was not created');
    category = outcome.category.id;
  });
  afterEach(async () => {
    await other.end();
    await pool.end();
    await schema.drop();
  });

  it('refuses a create that waited for a delete of its category which then committed', async () => {
    // The delete, as PostgresCategoryRepository.remove makes it, held before its commit.
    await other.query('BEGIN');
    await other.query('SELECT version FROM categories WHERE id = $1 FOR UPDATE', [category]);
    const create = rejection(pets.create(draft('Rex', 'available', category), 'registered'));
    await someoneWaitsFor(other, pool);
    await other.query('DELETE FROM categories WHERE id = $1', [category]);
    await other.query('COMMIT');
    expect(await create).to.be.instanceOf(UnknownCategoryError);
    expect(await pets.list({ limit: 10 })).to.deep.equal([]);
  });

  it('refuses an update into a category whose delete it waited for', async () => {
    const rex = await pets.create(draft('Rex', 'available', category + 100));
    await other.query('BEGIN');
    await other.query('SELECT version FROM categories WHERE id = $1 FOR UPDATE', [category]);
    const update = rejection(pets.update(rex.id, 1, draft('Rex', 'available', category), 'registered'));
    await someoneWaitsFor(other, pool);
    await other.query('DELETE FROM categories WHERE id = $1', [category]);
    await other.query('COMMIT');
    expect(await update).to.be.instanceOf(UnknownCategoryError);
    expect((await pets.list({ limit: 10 })).map((pet) => pet.categoryId)).to.deep.equal([category + 100]);
  });

  it('makes a delete wait for a create in the category, then find its pet: category_in_use', async () => {
    // Another instance's create under the rule, held before its commit.
    await other.query('BEGIN');
    const batch = insertPetsSql({ recordEvents: false, registered: true });
    await other.query(batch, [['Rex'], [category], ['available'], [null], [null], [null], [true]]);
    const removal = categories.remove(category, 1);
    await someoneWaitsFor(other, pool);
    await other.query('COMMIT');
    expect(await removal).to.equal('in_use');
    expect(await categories.exists(category)).to.equal(true);
  });
});
