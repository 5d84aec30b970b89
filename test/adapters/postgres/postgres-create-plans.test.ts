// A connection keeps the plan of a named statement. Planned while the statistics said that
// idempotency_keys was small, a batch insert that reads it would read all of it for every batch
// once it holds thousands of keys, until the next ANALYZE: creates without a key must not read
// it at all, and those that complete a record must find it by key.
import { expect } from 'chai';
import pg from 'pg';
import { EventRecording } from '../../../src/adapters/postgres/postgres-event-recording.js';
import { type PetChangeStatements, petChangeStatements } from '../../../src/adapters/postgres/postgres-pet-statements.js';
import { migratedTestSchema } from '../../support/migrated-test-schemas.js';
import { describeWithPostgres, type TestSchema } from '../../support/postgres.js';
import { sequentialScansBy } from '../../support/sequential-scans.js';

/** `count` keys already completed, as a day of keyed creates leaves them. */
const COMPLETED_KEYS = (count: number, from = 1) =>
  `INSERT INTO idempotency_keys (scope, key, token, fingerprint, pet, expires_at, lease_expires_at)
   SELECT 'earlier', 'key ' || i, 'token', 'fingerprint', '{}'::jsonb, now() + interval '1 day', now() FROM generate_series(${from}, ${from + count - 1}) AS i`;

const HELD_KEY = `INSERT INTO idempotency_keys (scope, key, token, fingerprint, expires_at, lease_expires_at)
  VALUES ('caller', $1, 'claim', 'fingerprint', now() + interval '1 day', now() + interval '1 minute')`;

/** The arrays of a batch of one write, keyed by `key` (held by the claim 'claim') or not. */
const oneWrite = (name: string, key?: string) => [
  [name],
  [1],
  ['available'],
  [key === undefined ? null : 'caller'],
  [key ?? null],
  [key === undefined ? null : 'claim'],
];

describeWithPostgres('PostgreSQL create plans', () => {
  let schema: TestSchema;
  let pool: pg.Pool;
  let session: pg.Client;
  let statements: PetChangeStatements;
  beforeEach(async () => {
    schema = await migratedTestSchema();
    // Recording no events, the statements' EventRecording never uses its pool.
    pool = new pg.Pool({ connectionString: schema.url });
    statements = petChangeStatements(new EventRecording(pool, false, undefined));
    session = new pg.Client({ connectionString: schema.url });
    await session.connect();
    await session.query('ANALYZE idempotency_keys');
  });
  afterEach(async () => {
    await session.end();
    await pool.end();
    await schema.drop();
  });

  /** Sequential scans of idempotency_keys by `query`. */
  const scansBy = (query: pg.QueryConfig) => sequentialScansBy(session, 'idempotency_keys', () => session.query(query));

  it('creates without a key never read idempotency_keys, whatever the statistics said when the session planned', async () => {
    // More than five runs: the connection then keeps one plan for every later batch.
    for (let run = 1; run <= 8; run += 1) await session.query({ ...statements.insertBatch, values: oneWrite(`Early ${run}`) });
    await session.query(COMPLETED_KEYS(5000));

    const scans = await scansBy({ ...statements.insertBatch, values: oneWrite('Late') });
    const pets = await session.query('SELECT 1 FROM pets');

    expect(pets.rowCount, 'every pet inserted').to.equal(9);
    expect(scans, 'scans of the whole table').to.equal(0);
  });

  it('creates that complete a record find it by key, whatever the statistics said before', async () => {
    // A few hundred keys in the statistics: reading them all is then the cheaper plan.
    await session.query(COMPLETED_KEYS(300));
    await session.query('ANALYZE idempotency_keys');
    for (let run = 1; run <= 8; run += 1) {
      await session.query(HELD_KEY, [`early ${run}`]);
      await session.query({ ...statements.insertKeyedBatch, values: oneWrite(`Early ${run}`, `early ${run}`) });
    }
    await session.query(COMPLETED_KEYS(5000, 301));
    await session.query(HELD_KEY, ['late']);

    const scans = await scansBy({ ...statements.insertKeyedBatch, values: oneWrite('Late', 'late') });
    const [late] = (await session.query<{ pet: { name: string } | null }>(`SELECT pet FROM idempotency_keys WHERE key = 'late'`)).rows;

    expect(late?.pet?.name, 'the record completed with its pet').to.equal('Late');
    expect(scans, 'scans of the whole table').to.equal(0);
  });
});
