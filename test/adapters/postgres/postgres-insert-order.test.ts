// Ids become visible in id order, even when inserts come from several connections (several
// server instances): cursor paging (id > last) must never step over an id that commits later.
import { expect } from 'chai';
import pg from 'pg';
import { openPostgresPool } from '../../../src/adapters/postgres/create-postgres-pool.js';
import { PostgresPetRepository } from '../../../src/adapters/postgres/postgres-pet-repository.js';
import { INSERT_PETS_SQL } from '../../../src/adapters/postgres/postgres-pet-statements.js';
import { draft } from '../../contract/pet-repository.contract.js';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../../support/postgres.js';

describeWithPostgres('PostgreSQL insert order', () => {
  let schema: TestSchema;
  beforeEach(async () => {
    schema = await createTestSchema();
  });
  afterEach(() => schema.drop());

  it('makes a later insert wait for an earlier one to commit, so no reader sees id N+1 before N', async () => {
    const pool = await openPostgresPool({ url: schema.url, poolSize: 4 });
    const slow = new pg.Client({ connectionString: schema.url });
    await slow.connect();
    try {
      const repo = new PostgresPetRepository(pool);
      // Another instance's insert: it has drawn its id but not committed yet.
      await slow.query('BEGIN');
      const [first] = (await slow.query(INSERT_PETS_SQL, [['first'], [1], ['available'], [null], [null], [null]])).rows as Array<{
        id: string;
      }>;
      const second = repo.create(draft('second'));
      // The second insert waits on the insert-order lock (seen in pg_locks), not on anything else.
      for (let tries = 0; ; tries += 1) {
        const waiting = await pool.query("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
        if (waiting.rows[0].n === 1) break;
        if (tries > 500) throw new Error('the second insert never waited for the first');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(await repo.list({ limit: 10 })).to.deep.equal([]);
      await slow.query('COMMIT');
      const created = await second;
      expect(created.id).to.be.greaterThan(Number(first!.id));
      expect((await repo.list({ limit: 10 })).map((p) => p.name)).to.deep.equal(['first', 'second']);
    } finally {
      await slow.end();
      await pool.end();
    }
  });
});
