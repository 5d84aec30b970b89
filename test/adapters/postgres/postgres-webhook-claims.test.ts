// Two dispatchers on one PostgreSQL claim at the same moment: the cap on one endpoint's
// deliveries under way holds across them. A claim ranks an endpoint's due deliveries in its
// own snapshot and takes only those within the cap, skipping the ones another claim has locked;
// it never reaches past them to later deliveries.
import { expect } from 'chai';
import pg from 'pg';
import { openPostgresPool } from '../../../src/adapters/postgres/create-postgres-pool.js';
import { PostgresWebhookStore } from '../../../src/adapters/postgres/postgres-webhook-store.js';
import type { WebhookUrl } from '../../../src/domain/index.js';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../../support/postgres.js';

const T0 = new Date('2030-01-01T00:00:00.000Z').getTime();
const at = (ms: number) => new Date(T0 + ms);
const LEASE = 60_000;
const CAP = 3;

describeWithPostgres('PostgreSQL webhook claims that meet', () => {
  let schema: TestSchema;
  let pool: pg.Pool;
  let other: pg.Client;
  let store: PostgresWebhookStore;
  beforeEach(async () => {
    schema = await createTestSchema();
    pool = await openPostgresPool({ url: schema.url, poolSize: 2 });
    other = new pg.Client({ connectionString: schema.url });
    await other.connect();
    store = new PostgresWebhookStore(pool);
  });
  afterEach(async () => {
    await other.end();
    await pool.end();
    await schema.drop();
  });

  it("keeps an endpoint's cap while another dispatcher's claim of its first deliveries is locked, and once it is committed", async () => {
    await store.add({ url: 'https://hooks.example/slow' as WebhookUrl, eventTypes: [], secret: 'whsec_c2xvdw==', createdAt: at(0) });
    for (let n = 0; n < 8; n += 1) {
      await store.enqueue([{ id: `e${n}`, type: 'petstore.pet.created', body: '{}' }], at(n));
    }
    // Another dispatcher's claim, caught between its locks and its commit: the first CAP
    // deliveries are leased in its open transaction.
    const otherPid = (await other.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    await other.query('BEGIN');
    const held = await other.query<{ event_id: string }>(
      `UPDATE webhook_deliveries SET next_attempt_at = $1, leased_until = $1
        WHERE id IN (SELECT id FROM webhook_deliveries ORDER BY next_attempt_at, id LIMIT ${CAP})
       RETURNING event_id`,
      [at(10 + LEASE)],
    );
    expect(held.rows.map((row) => row.event_id).sort()).to.deep.equal(['e0', 'e1', 'e2']);

    // Its snapshot shows none under way, so it ranks e0-e2 within the cap and finds them locked;
    // e3 and later are past the cap. It answers at once, while the other transaction is open.
    expect(await store.claimDue(at(10), 10, LEASE, CAP), 'while the other claim is uncommitted').to.deep.equal([]);
    const [open] = await pool.query<{ state: string }>('SELECT state FROM pg_stat_activity WHERE pid = $1', [otherPid]).then((r) => r.rows);
    expect(open?.state, 'the other claim was still open meanwhile').to.equal('idle in transaction');

    await other.query('COMMIT');
    expect(await store.claimDue(at(20), 10, LEASE, CAP), 'the other claim committed: the cap is full').to.deep.equal([]);
    expect(
      (await store.claimDue(at(10 + LEASE), 10, LEASE, CAP)).map((d) => d.eventId),
      'once its leases ran out, the endpoint has CAP places again: the due deliveries soonest first',
    ).to.deep.equal(['e3', 'e4', 'e5']);
  });
});
