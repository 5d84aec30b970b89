// The bench's PostgreSQL baseline (bench/servers/baseline-postgres.ts) commits each create alone, each pet
// answered with its own id: the plain INSERT … RETURNING the project's creates are measured against.
import { expect } from 'chai';
import pg from 'pg';
import type { BaselineStorage } from '../../bench/servers/baseline-handler.js';
import { postgresStorage } from '../../bench/servers/baseline-postgres.js';
import { openPostgresPool } from '../../src/adapters/postgres/create-postgres-pool.js';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../support/postgres.js';

describeWithPostgres("the bench's PostgreSQL baseline", () => {
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
    Promise.all(names.map((name) => Promise.resolve(storage!.insert(name, 1, 'available'))));

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

  it('the baseline commits each create alone', async () => {
    storage = postgresStorage(schema.url, 2);
    const names = ['plain 0', 'plain 1', 'plain 2', 'plain 3'];
    const ids = await createAll(names);
    const pets = await stored();
    expect(ids.map((id) => pets.get(id)?.name)).to.deep.equal(names);
    expect(new Set([...pets.values()].map((pet) => pet.writer)).size).to.equal(names.length);
  });
});
