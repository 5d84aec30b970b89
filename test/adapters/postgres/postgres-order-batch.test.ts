// Group commit of placements on PostgreSQL: the placements without a key of one event-loop turn
// are one statement, so one transaction and one WAL flush. Of two in one batch for one pet, the
// first places it and the other finds it taken; each pet's event comes before its order's.
import { expect } from 'chai';
import * as O from 'fp-ts/lib/Option.js';
import pg from 'pg';
import { openPostgresPool } from '../../../src/adapters/postgres/create-postgres-pool.js';
import { PostgresEventOutbox } from '../../../src/adapters/postgres/postgres-event-outbox.js';
import { PostgresOrderRepository } from '../../../src/adapters/postgres/postgres-order-repository.js';
import { PostgresPetRepository } from '../../../src/adapters/postgres/postgres-pet-repository.js';
import type { OrderNote } from '../../../src/domain/index.js';
import { draft } from '../../contract/pet-repository.contract.js';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../../support/postgres.js';

describeWithPostgres('PostgreSQL group commit of placements', () => {
  let schema: TestSchema;
  let pool: pg.Pool;
  let pets: PostgresPetRepository;
  let orders: PostgresOrderRepository;

  beforeEach(async () => {
    schema = await createTestSchema();
    pool = await openPostgresPool({ url: schema.url, poolSize: 4 });
    pets = new PostgresPetRepository(pool, true);
    orders = new PostgresOrderRepository(pool, true);
  });
  afterEach(async () => {
    await pool.end();
    await schema.drop();
  });

  it('places the placements of one turn in one transaction, each pet once, to the first that asked', async () => {
    const [a, b, c] = await Promise.all(['A', 'B', 'C'].map((name) => pets.create(draft(name))));
    const at = new Date('2026-11-28T10:00:00.000Z');
    const asked = [a!.id, b!.id, a!.id, c!.id].map((petId, i) => orders.place({ petId, note: `note ${i}` as OrderNote, at }));
    const placements = await Promise.all(asked);

    expect(placements.map((p) => p.kind)).to.deep.equal(['placed', 'placed', 'not-available', 'placed']);
    const placed = placements.flatMap((p) => (p.kind === 'placed' ? [p.order.order] : []));
    expect(placed.map((o) => [o.petId, o.note])).to.deep.equal([
      [a!.id, 'note 0'],
      [b!.id, 'note 1'],
      [c!.id, 'note 3'],
    ]);
    const { rows } = await pool.query<{ writers: number; orders: number }>(
      'SELECT count(DISTINCT xmin::text)::int AS writers, count(*)::int AS orders FROM orders',
    );
    expect(rows[0], 'one transaction wrote the three orders').to.deep.equal({ writers: 1, orders: 3 });
    for (const pet of [a!, b!, c!]) expect(O.toUndefined(await pets.findVersioned(pet.id))?.pet.status).to.equal('pending');
  });

  it("records, for each pet placed, the pet's change before its order's creation", async () => {
    const created = await Promise.all(['A', 'B'].map((name) => pets.create(draft(name))));
    const at = new Date('2026-11-28T10:00:00.000Z');
    await Promise.all(created.map((pet) => orders.place({ petId: pet.id, at })));
    const { events } = await new PostgresEventOutbox(pool).read('webhooks', 100);
    for (const pet of created) {
      const types = events.filter((event) => event.petId === pet.id).map((event) => event.type);
      expect(types).to.deep.equal(['petstore.pet.created', 'petstore.pet.updated', 'petstore.order.created']);
    }
  });
});
