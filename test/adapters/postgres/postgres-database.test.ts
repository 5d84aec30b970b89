// What the PostgreSQL adapter promises beyond the contract: versioned migrations applied once
// under concurrency, ids that stay exact, the (status, id) index, and a health check.
import { expect } from 'chai';
import * as O from 'fp-ts/lib/Option.js';
import type { Pool } from 'pg';
import { createPostgresPool, openPostgresPool } from '../../../src/adapters/postgres/create-postgres-pool.js';
import {
  migratePostgres,
  POSTGRES_MIGRATIONS,
  POSTGRES_MIGRATIONS_TABLE,
  POSTGRES_SCHEMA_VERSION,
  type PostgresMigration,
} from '../../../src/adapters/postgres/migrations.js';
import { checkPostgres } from '../../../src/adapters/postgres/postgres-health-check.js';
import { PostgresPetRepository } from '../../../src/adapters/postgres/postgres-pet-repository.js';
import { type PetId, StorageUnavailableError } from '../../../src/domain/index.js';
import { draft } from '../../contract/pet-repository.contract.js';
import { adminQuery, createTestSchema, describeWithPostgres, type TestSchema } from '../../support/postgres.js';

/** The rejection of `promise`, or a failure when it resolves. */
async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

// A port on which nothing listens: found by binding one and closing it again.
async function closedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describeWithPostgres('PostgreSQL database', () => {
  let schema: TestSchema;
  let pools: Pool[];
  const pool = (size = 2): Pool => {
    const created = createPostgresPool({ url: schema.url, poolSize: size });
    pools.push(created);
    return created;
  };
  const query = async <R extends object>(text: string, values: unknown[] = []): Promise<R[]> =>
    (await pool(1).query(text, values)).rows as R[];

  beforeEach(async () => {
    schema = await createTestSchema();
    pools = [];
  });
  afterEach(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await schema.drop();
  });

  it('records each applied migration by version, and applies none twice', async () => {
    expect(await migratePostgres(pool())).to.deep.equal({ from: 0, to: POSTGRES_SCHEMA_VERSION });
    expect(await migratePostgres(pool())).to.deep.equal({ from: POSTGRES_SCHEMA_VERSION, to: POSTGRES_SCHEMA_VERSION });
    const rows = await query<{ version: number; name: string }>(`SELECT version, name FROM ${POSTGRES_MIGRATIONS_TABLE} ORDER BY version`);
    expect(rows).to.deep.equal(POSTGRES_MIGRATIONS.map(({ version, name }) => ({ version, name })));
  });

  it('lets ten migrators start at once on a new schema: all succeed, each migration runs once', async () => {
    // Migration 2 counts its own runs: a second run would add a row (or fail on the CREATE).
    const counting: PostgresMigration[] = [
      ...POSTGRES_MIGRATIONS,
      {
        version: POSTGRES_MIGRATIONS.length + 1,
        name: 'count',
        sql: 'CREATE TABLE runs (at timestamptz); INSERT INTO runs VALUES (now());',
      },
    ];
    const results = await Promise.all(Array.from({ length: 10 }, () => migratePostgres(pool(1), counting)));
    expect(results.filter((r) => r.from === 0)).to.have.length(1);
    expect(results.every((r) => r.to === counting.length)).to.equal(true);
    expect(await query('SELECT * FROM runs')).to.have.length(1);
    expect(await query(`SELECT version FROM ${POSTGRES_MIGRATIONS_TABLE}`)).to.have.length(counting.length);
  });

  it('brings an older schema up to date with only the migrations it lacks', async () => {
    await migratePostgres(pool());
    const next: PostgresMigration[] = [
      ...POSTGRES_MIGRATIONS,
      { version: POSTGRES_MIGRATIONS.length + 1, name: 'extra table', sql: 'CREATE TABLE extra (id bigint)' },
    ];
    expect(await migratePostgres(pool(), next)).to.deep.equal({ from: POSTGRES_SCHEMA_VERSION, to: next.length });
    expect(await query('SELECT * FROM extra')).to.deep.equal([]);
  });

  it('refuses a schema newer than this release, and a migration list out of order', async () => {
    await migratePostgres(pool());
    await query(`INSERT INTO ${POSTGRES_MIGRATIONS_TABLE} (version, name) VALUES ($1, 'from the future')`, [POSTGRES_SCHEMA_VERSION + 1]);
    expect((await rejectionOf(openPostgresPool({ url: schema.url, poolSize: 1 }))).message).to.match(/newer than this release/);
    const gap = [{ version: 2, name: 'no version 1', sql: 'SELECT 1' }];
    expect((await rejectionOf(migratePostgres(pool(), gap))).message).to.match(/has version 2, expected 1/);
  });

  it('leaves the previous version intact when a migration fails', async () => {
    const broken: PostgresMigration[] = [
      ...POSTGRES_MIGRATIONS,
      { version: POSTGRES_MIGRATIONS.length + 1, name: 'broken', sql: 'CREATE TABLE half (id bigint); SELECT no_such_function();' },
    ];
    await migratePostgres(pool());
    expect((await rejectionOf(migratePostgres(pool(), broken))).message).to.contain('no_such_function');
    expect(await query(`SELECT max(version) AS version FROM ${POSTGRES_MIGRATIONS_TABLE}`)).to.deep.equal([
      { version: POSTGRES_SCHEMA_VERSION },
    ]);
    expect(await query("SELECT to_regclass('half') AS half")).to.deep.equal([{ half: null }]);
    // A new schema is not left half-made either: its first migration and the version table go together.
    const fresh = await createTestSchema();
    try {
      const freshPool = createPostgresPool({ url: fresh.url, poolSize: 1 });
      pools.push(freshPool);
      await rejectionOf(migratePostgres(freshPool, [{ version: 1, name: 'broken', sql: 'CREATE TABLE pets (id bigint); SELECT 1/0;' }]));
      expect(
        (await freshPool.query(`SELECT to_regclass('pets') AS pets, to_regclass('${POSTGRES_MIGRATIONS_TABLE}') AS versions`)).rows,
      ).to.deep.equal([{ pets: null, versions: null }]);
    } finally {
      await fresh.drop();
    }
  });

  it('keeps ids and category ids exact as bigint, and refuses a row it cannot represent', async () => {
    const repo = new PostgresPetRepository(await openPostgresPool({ url: schema.url, poolSize: 2 }).then((p) => (pools.push(p), p)));
    const types = await query<{ column_name: string; data_type: string }>(
      "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'pets' AND column_name IN ('id', 'category_id') ORDER BY column_name",
    );
    expect(types).to.deep.equal([
      { column_name: 'category_id', data_type: 'bigint' },
      { column_name: 'id', data_type: 'bigint' },
    ]);
    const big = await repo.create(draft('big', 'available', Number.MAX_SAFE_INTEGER));
    expect(await repo.findById(big.id)).to.deep.equal(O.some(big));
    // Written around the adapter: a category id no JSON client could read exactly.
    await query("INSERT INTO pets (name, category_id, status) VALUES ('huge', 9007199254740993, 'sold')");
    const err = await rejectionOf(repo.list({ limit: 10, status: 'sold' }));
    expect(err).to.be.instanceOf(RangeError);
    expect(err.message).to.contain('9007199254740993');
  });

  it('never hands out an id beyond 2^53−1: the database refuses to create the pet instead', async () => {
    const repo = new PostgresPetRepository(await openPostgresPool({ url: schema.url, poolSize: 1 }).then((p) => (pools.push(p), p)));
    await query("SELECT setval(pg_get_serial_sequence('pets', 'id'), 9007199254740990)");
    expect((await repo.create(draft('last'))).id).to.equal(Number.MAX_SAFE_INTEGER);
    const err = await rejectionOf(repo.create(draft('one too many')));
    expect(err).not.to.be.instanceOf(StorageUnavailableError);
    expect(err.message).to.match(/maximum value/);
    expect(await repo.findById(Number.MAX_SAFE_INTEGER as PetId)).to.satisfy(O.isSome);
  });

  it('serves the status filter from the (status, id) index, with no sort step', async () => {
    await migratePostgres(pool());
    await query(
      "INSERT INTO pets (name, category_id, status) SELECT 'p' || i, 1, CASE WHEN i % 100 = 0 THEN 'sold' ELSE 'available' END FROM generate_series(1, 5000) AS i",
    );
    await query('ANALYZE pets');
    const plan = await query<{ 'QUERY PLAN': string }>(
      "EXPLAIN SELECT id, name, category_id, status FROM pets WHERE status = 'sold' ORDER BY id LIMIT 20",
    );
    const text = plan.map((row) => row['QUERY PLAN']).join('\n');
    expect(text).to.match(/Index Scan using pets_status_id/);
    expect(text).not.to.match(/Sort/);
  });

  it('refuses a status outside the three values, even written around the adapter', async () => {
    await migratePostgres(pool());
    const err = await rejectionOf(query("INSERT INTO pets (name, category_id, status) VALUES ('x', 1, 'lost')"));
    expect(err.message).to.match(/check constraint/);
  });

  it('has a health check that answers promptly, also when the server cannot be reached', async () => {
    await checkPostgres(pool(1));
    const port = await closedPort();
    const unreachable = createPostgresPool({ url: `postgres://postgres@127.0.0.1:${port}/test`, poolSize: 1 });
    pools.push(unreachable);
    expect(await rejectionOf(checkPostgres(unreachable, 1000))).to.be.instanceOf(StorageUnavailableError);
  });

  it('rejects with StorageUnavailableError when the server cannot be reached', async () => {
    const port = await closedPort();
    const unreachable = createPostgresPool({ url: `postgres://postgres@127.0.0.1:${port}/test`, poolSize: 1 });
    pools.push(unreachable);
    const repo = new PostgresPetRepository(unreachable);
    for (const attempt of [repo.list({ limit: 1 }), repo.create(draft('x')), repo.findById(1 as PetId)]) {
      expect(await rejectionOf(attempt)).to.be.instanceOf(StorageUnavailableError);
    }
    expect(await rejectionOf(migratePostgres(unreachable))).to.be.instanceOf(StorageUnavailableError);
  });
});

describeWithPostgres('PostgreSQL test set-up', () => {
  it('connects each test to its own schema', async () => {
    const [a, b] = [await createTestSchema(), await createTestSchema()];
    try {
      expect(a.name).not.to.equal(b.name);
      const [row] = await adminQuery<{ schema: string }>('SELECT current_schema() AS schema', [], a.url);
      expect(row?.schema).to.equal(a.name);
    } finally {
      await a.drop();
      await b.drop();
    }
  });
});
