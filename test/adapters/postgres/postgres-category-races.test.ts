// Categories' names are unique in the storage itself, on PostgreSQL: a create or a rename that
// races another transaction taking the same name (whatever its case) waits on the unique index
// and loses once it commits, or wins once it rolls back. Each test holds the other transaction
// open and checks, in pg_blocking_pids, that the repository's write waited for it.
import { expect } from 'chai';
import pg from 'pg';
import { openPostgresPool } from '../../../src/adapters/postgres/create-postgres-pool.js';
import { PostgresCategoryRepository } from '../../../src/adapters/postgres/postgres-category-repository.js';
import type { CategoryName } from '../../../src/domain/index.js';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../../support/postgres.js';
import { someoneWaitsFor } from '../../support/postgres-waits.js';

describeWithPostgres('PostgreSQL: racing writes of one category name', () => {
  let schema: TestSchema;
  let pool: pg.Pool;
  let other: pg.Client;
  let categories: PostgresCategoryRepository;
  beforeEach(async () => {
    schema = await createTestSchema();
    pool = await openPostgresPool({ url: schema.url, poolSize: 4 });
    other = new pg.Client({ connectionString: schema.url });
    await other.connect();
    categories = new PostgresCategoryRepository(pool);
  });
  afterEach(async () => {
    await other.end();
    await pool.end();
    await schema.drop();
  });

  /** Another instance's create of `name`, held before its commit. */
  const holdCreate = async (name: string) => {
    await other.query('BEGIN');
    await other.query('INSERT INTO categories (name, name_key) VALUES ($1, lower($1))', [name]);
  };

  it('makes a create wait for another transaction taking the name, and refuses it once that commits', async () => {
    await holdCreate('Dogs');
    const create = categories.create('DOGS' as CategoryName);
    await someoneWaitsFor(other, pool);
    await other.query('COMMIT');
    expect((await create).kind).to.equal('name_taken');
    expect((await categories.list({ limit: 10 })).map((category) => category.name)).to.deep.equal(['Dogs']);
  });

  it('lets the waiting create through when the other transaction rolls back', async () => {
    await holdCreate('Dogs');
    const create = categories.create('dogs' as CategoryName);
    await someoneWaitsFor(other, pool);
    await other.query('ROLLBACK');
    expect((await create).kind).to.equal('created');
    expect((await categories.list({ limit: 10 })).map((category) => category.name)).to.deep.equal(['dogs']);
  });

  it('makes a rename to the name wait, and refuses it once the other transaction commits', async () => {
    const cats = await categories.create('Cats' as CategoryName);
    if (cats.kind !== 'created') throw new Error('Cats was not created');
    await holdCreate('Dogs');
    const rename = categories.rename(cats.category.id, 1, 'Dogs' as CategoryName);
    await someoneWaitsFor(other, pool);
    await other.query('COMMIT');
    expect((await rename).kind).to.equal('name_taken');
  });
});
