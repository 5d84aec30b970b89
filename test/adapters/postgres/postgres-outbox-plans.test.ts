// A session plans events_put_in_order()'s statements once. Planned while the table's statistics
// said it was small, they must still find the waiting events by index and join them by key once
// the table holds thousands: a scan of the whole table on every call is what the relay paid.
import { expect } from 'chai';
import pg from 'pg';
import { migratedTestSchema } from '../../support/migrated-test-schemas.js';
import { describeWithPostgres, type TestSchema } from '../../support/postgres.js';
import { sequentialScansBy } from '../../support/sequential-scans.js';

const INSERT_EVENTS = (count: number) =>
  `INSERT INTO events (id, type, pet_id, data, time)
   SELECT gen_random_uuid(), 'petstore.pet.created', i, jsonb_build_object('id', i), now() FROM generate_series(1, ${count}) AS i`;

describeWithPostgres('PostgreSQL outbox plans', () => {
  let schema: TestSchema;
  beforeEach(async () => {
    schema = await migratedTestSchema();
  });
  afterEach(() => schema.drop());

  it('puts events in order without scanning the table, whatever its statistics said when the session planned', async () => {
    const session = new pg.Client({ connectionString: schema.url });
    await session.connect();
    try {
      await session.query(INSERT_EVENTS(2));
      await session.query('ANALYZE events');
      // Planned now, with two events in the table and in its statistics.
      await session.query('SELECT events_put_in_order()');
      await session.query(INSERT_EVENTS(5000));
      await session.query('SELECT events_put_in_order()');
      await session.query(INSERT_EVENTS(1));

      const scans = await sequentialScansBy(session, 'events', () => session.query('SELECT events_put_in_order()'));
      const unordered = await session.query('SELECT 1 FROM events WHERE log_position IS NULL');

      expect(unordered.rowCount, 'every event has its position').to.equal(0);
      expect(scans, 'scans of the whole table').to.equal(0);
    } finally {
      await session.end();
    }
  });
});
