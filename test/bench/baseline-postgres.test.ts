// The bench's PostgreSQL references (bench/baseline-postgres.ts): the baseline commits each create
// alone, and the group-commit floor writes the creates of a turn in one transaction, each pet
// answered with its own id. A floor that answered wrong ids, or never grouped, would measure
// something else than the design it stands for.
import { expect } from 'chai';
import pg from 'pg';
import type { BaselineStorage } from '../../bench/baseline-handler.js';
import { postgresStorage } from '../../bench/baseline-postgres.js';
import { openPostgresPool } from '../../src/adapters/postgres/create-postgres-pool.js';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../support/postgres.js';

describeWithPostgres("the bench's PostgreSQL baseline and group-commit floor", () => {
  let schema: TestSchema;
  let pool: pg.Pool;
  let storage: BaselineStorage | undefined;
  // The baseline reads int8 as a number, for its whole process; the other tests of this one expect pg's default.
  const int8 = pg.types.getTypeParser(pg.types.builtins.INT8);

  /** Each pet's name and the transaction that wrote it (xmin), by id. */
  const stored = async (): Promise<Map<number, { name: string; writer: string }>> => {
    const { rows } = await pool.query<{ id: string; name: string; xmin: string }>('SELECT id::text, name, xmin::text FROM pets');
    return new Map(rows.map((row) => [Number(row.id), { name: row.name, writer: row.xmin }]));
  };
  const createAll = (names: readonly string[]): Promise<number[]> =>
    Promise.all(names.map((name) => storage!.insert(name, 1, 'available')));

  beforeEach(async () => {
    schema = await createTestSchema();
    pool = await openPostgresPool({ url: schema.url, poolSize: 2 });
  });
  afterEach(async () => {
    await storage?.close();
    storage = undefined;
    pg.types.setTypeParser(pg.types.builtins.INT8, int8);
    await pool.end();
    await schema.drop();
  });

  it('the group-commit floor answers each create with the id of its own pet, all of one turn in one transaction', async () => {
    storage = postgresStorage(schema.url, 2, 'grouped');
    const names = Array.from({ length: 12 }, (_, i) => `floor pet ${i}`);
    const ids = await createAll(names);
    const pets = await stored();
    expect(ids.map((id) => pets.get(id)?.name)).to.deep.equal(names);
    expect(ids).to.deep.equal([...ids].sort((a, b) => a - b));
    expect(new Set([...pets.values()].map((pet) => pet.writer)).size, 'transactions that wrote the 12 pets').to.equal(1);
  });

  it('the group-commit floor writes the creates asked for while a batch is written in the next batch', async () => {
    storage = postgresStorage(schema.url, 2, 'grouped');
    const first = createAll(['first 0', 'first 1', 'first 2']);
    await new Promise((resolve) => setImmediate(resolve));
    const second = createAll(['second 0', 'second 1']);
    const ids = [...(await first), ...(await second)];
    const pets = await stored();
    expect(ids.map((id) => pets.get(id)?.name)).to.deep.equal(['first 0', 'first 1', 'first 2', 'second 0', 'second 1']);
    const writers = ids.map((id) => pets.get(id)!.writer);
    expect(new Set(writers.slice(0, 3)).size).to.equal(1);
    expect(new Set(writers.slice(3)).size).to.equal(1);
    expect(writers[3]).to.not.equal(writers[0]);
  });

  it('the baseline commits each create alone', async () => {
    storage = postgresStorage(schema.url, 2);
    const names = ['plain 0', 'plain 1', 'plain 2', 'plain 3'];
    const ids = await createAll(names);
    const pets = await stored();
    expect(ids.map((id) => pets.get(id)?.name)).to.deep.equal(names);
    expect(new Set([...pets.values()].map((pet) => pet.writer)).size).to.equal(names.length);
  });
});
