// On PostgreSQL an event's sequence is drawn before its transaction commits, so an event may
// commit after one of a later sequence that a transport has already taken. Its position in the
// outbox order is given when it is first read after its commit: no transport steps over it.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import pg from 'pg';
import { openPostgresPool } from '../../../src/adapters/postgres/create-postgres-pool.js';
import { PostgresEventOutbox } from '../../../src/adapters/postgres/postgres-event-outbox.js';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../../support/postgres.js';

const INSERT_EVENT =
  "INSERT INTO events (id, type, pet_id, data, time) VALUES ($1, 'petstore.pet.created', $2, $3, now()) RETURNING sequence";

describeWithPostgres('PostgreSQL outbox order', () => {
  let schema: TestSchema;
  beforeEach(async () => {
    schema = await createTestSchema();
  });
  afterEach(() => schema.drop());

  it('hands a transport an event that commits after a later sequence was taken, once, after it', async () => {
    const pool = await openPostgresPool({ url: schema.url, poolSize: 4 });
    const slow = new pg.Client({ connectionString: schema.url });
    await slow.connect();
    try {
      const outbox = new PostgresEventOutbox(pool);
      const [early, late] = [randomUUID(), randomUUID()];
      // Another instance's change: its event has drawn its sequence, and is not committed yet.
      await slow.query('BEGIN');
      const drawn = Number((await slow.query(INSERT_EVENT, [late, 1, { id: 1 }])).rows[0].sequence);
      const committed = Number((await pool.query(INSERT_EVENT, [early, 2, { id: 2 }])).rows[0].sequence);
      expect(committed, 'the race: the event that commits first has the later sequence').to.be.greaterThan(drawn);

      const first = await outbox.read('nats', 10);
      expect(first.events.map((event) => event.id)).to.deep.equal([early]);
      await outbox.markTaken('nats', first.through, new Date());
      await slow.query('COMMIT');

      const next = await outbox.read('nats', 10);
      expect(next.events.map((event) => event.id)).to.deep.equal([late]);
      expect(next.through).to.be.greaterThan(first.through);
      // Another transport reads both, in the order they were first read: the order of their commits.
      expect((await outbox.read('webhooks', 10)).events.map((event) => event.id)).to.deep.equal([early, late]);
    } finally {
      await slow.end();
      await pool.end();
    }
  });
});
