// The relays' wake-up on PostgreSQL is sent after the writers' commits, never in their
// transactions (where it would make the commits that record events wait for one another), and a
// burst of writes costs at most two NOTIFYs, the last one after every commit of the burst; while
// the relay of the writers' own process holds the lease, they wake it there and notify no one.
import { expect } from 'chai';
import pg from 'pg';
import { openPostgresPool } from '../../../src/adapters/postgres/create-postgres-pool.js';
import { EVENTS_CHANNEL, EventsNotice } from '../../../src/adapters/postgres/events-notice.js';
import { PostgresEventOutbox } from '../../../src/adapters/postgres/postgres-event-outbox.js';
import { PostgresPetRepository } from '../../../src/adapters/postgres/postgres-pet-repository.js';
import { insertPetsSql } from '../../../src/adapters/postgres/postgres-pet-statements.js';
import { draft } from '../../contract/pet-repository.contract.js';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../../support/postgres.js';

describeWithPostgres('PostgreSQL events notice', () => {
  let schema: TestSchema;
  let pool: pg.Pool;
  let listener: pg.Client;
  let heard: number;

  beforeEach(async () => {
    schema = await createTestSchema();
    pool = await openPostgresPool({ url: schema.url, poolSize: 4 });
    listener = new pg.Client({ connectionString: schema.url });
    await listener.connect();
    heard = 0;
    listener.on('notification', () => (heard += 1));
    await listener.query(`LISTEN ${EVENTS_CHANNEL}`);
  });
  afterEach(async () => {
    await listener.end();
    await pool.end();
    await schema.drop();
  });

  /** Resolves once the listener has heard `count` notifications (a round trip on it delivers what has arrived). */
  const hear = async (count: number): Promise<void> => {
    for (let tries = 0; heard < count; tries += 1) {
      if (tries > 500) expect.fail(`heard ${heard} notifications, not ${count}`);
      await listener.query('SELECT 1');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  it('is not sent by a transaction that records an event: the writers send it after their commit', async () => {
    const writer = new pg.Client({ connectionString: schema.url });
    await writer.connect();
    try {
      await writer.query(insertPetsSql({ recordEvents: true }), [['Quiet'], [1], ['available'], [null], [null], [null]]);
    } finally {
      await writer.end();
    }
    await new PostgresPetRepository(pool, true).create(draft('Heard'));
    await hear(1);
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM events');
    expect(rows[0]!.n, 'both writes recorded their event').to.equal(2);
    // The raw insert, notified by no trigger, was not heard; the repository's write was, once.
    expect(heard).to.equal(1);
  });

  it('sends one NOTIFY more after the one under way for the calls made meanwhile, and no more', async () => {
    // The pool's NOTIFYs are held until the test lets them go, to make the calls come "meanwhile".
    const sent: Array<() => void> = [];
    const query = pool.query.bind(pool) as (config: pg.QueryConfig) => Promise<pg.QueryResult>;
    const gated = Object.assign(Object.create(pool) as pg.Pool, {
      query: (config: pg.QueryConfig) => new Promise<void>((resolve) => sent.push(resolve)).then(() => query(config)),
    });
    const notice = new EventsNotice(gated);
    notice.recorded();
    expect(sent.length, 'the first call sends at once').to.equal(1);
    notice.recorded();
    notice.recorded();
    notice.recorded();
    expect(sent.length, 'the calls made meanwhile wait for the first').to.equal(1);
    sent[0]!();
    await hear(1);
    for (let tries = 0; sent.length < 2; tries += 1) {
      if (tries > 500) expect.fail('no NOTIFY followed the calls made meanwhile');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    sent[1]!();
    await hear(2);
    expect(sent.length, 'three calls meanwhile cost one NOTIFY').to.equal(2);
  });

  it("wakes this process's relay in the process while it holds the lease, and notifies again once it gave it back", async () => {
    const outbox = new PostgresEventOutbox(pool);
    let woken = 0;
    const unwatch = await outbox.watch(() => (woken += 1));
    try {
      const pets = new PostgresPetRepository(pool, true);
      expect(await outbox.lease('this process', new Date(), 10_000)).to.equal(true);
      await pets.create(draft('Woken here'));
      expect(woken, 'the relay of the process woken after the commit').to.equal(1);
      await outbox.release('this process');
      await pets.create(draft('Heard by all'));
      await hear(1);
      // NOTIFYs arrive in commit order: one for the first write would have come before this one.
      expect(heard, 'the second write alone was notified').to.equal(1);
    } finally {
      await unwatch();
    }
  });
});
