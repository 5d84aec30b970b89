// The trace context each PostgreSQL change records with its events, as its statement's
// parameters: in a batch of creates, each write's own caller's (taken when it was asked for,
// not when the batch runs), even when the batch fails and its writes are tried alone; in a
// write at a version, an order's moves and a category's changes, the one under way. Without
// tracing, the statements name no trace column and the events carry none.
import { expect } from 'chai';
import * as O from 'fp-ts/lib/Option.js';
import pg from 'pg';
import { openPostgresPool } from '../../../src/adapters/postgres/create-postgres-pool.js';
import { PostgresCategoryRepository } from '../../../src/adapters/postgres/postgres-category-repository.js';
import { PostgresEventOutbox } from '../../../src/adapters/postgres/postgres-event-outbox.js';
import { EventRecording } from '../../../src/adapters/postgres/postgres-event-recording.js';
import { PostgresIdempotencyStore } from '../../../src/adapters/postgres/postgres-idempotency-store.js';
import { changeOrderSql, placeOrderSql, placeOrdersSql } from '../../../src/adapters/postgres/postgres-order-statements.js';
import { PostgresOrderRepository } from '../../../src/adapters/postgres/postgres-order-repository.js';
import { PostgresPetRepository } from '../../../src/adapters/postgres/postgres-pet-repository.js';
import { petChangeStatements } from '../../../src/adapters/postgres/postgres-pet-statements.js';
import type { CategoryName, PetEvent, PetStatus, TraceContext } from '../../../src/domain/index.js';
import { claimHold, draft } from '../../contract/pet-repository.contract.js';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../../support/postgres.js';

const A: TraceContext = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', tracestate: 'a=1' };
const B: TraceContext = { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' };

describeWithPostgres('PostgreSQL: the trace context of events', () => {
  let schema: TestSchema;
  let pool: pg.Pool;
  let current: TraceContext | undefined;
  const underWay = () => current;

  beforeEach(async () => {
    schema = await createTestSchema();
    pool = await openPostgresPool({ url: schema.url, poolSize: 4 });
    current = undefined;
  });
  afterEach(async () => {
    await pool.end();
    await schema.drop();
  });

  /** Every event recorded so far, as the relay reads them. */
  const recorded = async (): Promise<readonly PetEvent[]> => (await new PostgresEventOutbox(pool).read('in-process', 100)).events;
  /** The trace context of each event, by its type and its pet's (or category's) id. */
  const tracesOf = (events: readonly PetEvent[]) => events.map((event) => [`${event.type} ${event.petId}`, event.traceContext]);
  /** The transaction that wrote each pet, by id (xmin). */
  const writers = async () => new Set((await pool.query<{ xmin: string }>('SELECT xmin::text FROM pets')).rows.map((row) => row.xmin));

  it("stores with each write of a batch its own caller's context, whoever's turn runs the batch", async () => {
    const pets = new PostgresPetRepository(pool, true, underWay);
    const hold = await claimHold(new PostgresIdempotencyStore(pool), 'key-1', new Date());
    // Asked for in one turn, each under another context: one statement writes them all after it.
    current = A;
    const first = pets.create(draft('First'));
    current = B;
    const second = pets.createCompleting(draft('Second'), hold);
    current = undefined;
    const third = pets.create(draft('Third'));
    current = A;
    const fourth = pets.create(draft('Fourth'));
    current = B;
    const created = [await first, O.toUndefined(await second)!, await third, await fourth];
    expect(await writers(), 'transactions that wrote the batch').to.have.length(1);
    expect(tracesOf(await recorded())).to.deep.equal([
      [`petstore.pet.created ${created[0]!.id}`, A],
      [`petstore.pet.created ${created[1]!.id}`, B],
      [`petstore.pet.created ${created[2]!.id}`, undefined],
      [`petstore.pet.created ${created[3]!.id}`, A],
    ]);
  });

  it('does so in a batch with a write under the rule registered, and in the writes of a failed batch tried alone', async () => {
    const pets = new PostgresPetRepository(pool, true, underWay);
    await new PostgresCategoryRepository(pool).create('Dogs' as CategoryName);
    current = B;
    const registered = pets.create(draft('Registered'), 'registered');
    current = A;
    const open = pets.create(draft('Open'));
    const batch = await Promise.all([registered, open]);
    // A value the database refuses fails the batch's statement; each write is then tried alone.
    current = A;
    const before = pets.create(draft('Before'));
    current = B;
    const refused = pets.create(draft('Refused', 'lost' as PetStatus));
    current = B;
    const after = pets.create(draft('After'));
    current = undefined;
    const outcomes = await Promise.allSettled([before, refused, after]);
    expect(outcomes.map((outcome) => outcome.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
    const [alone1, alone2] = [
      (outcomes[0] as PromiseFulfilledResult<{ id: number }>).value,
      (outcomes[2] as PromiseFulfilledResult<{ id: number }>).value,
    ];
    expect(tracesOf(await recorded())).to.deep.equal([
      [`petstore.pet.created ${batch[0].id}`, B],
      [`petstore.pet.created ${batch[1].id}`, A],
      [`petstore.pet.created ${alone1.id}`, A],
      [`petstore.pet.created ${alone2.id}`, B],
    ]);
  });

  it("stores the context under way with an update, a delete, an order's moves and a category's changes", async () => {
    const pets = new PostgresPetRepository(pool, true, underWay);
    const orders = new PostgresOrderRepository(pool, true, underWay);
    const categories = new PostgresCategoryRepository(pool, true, underWay);
    const [kept, removed] = await Promise.all([pets.create(draft('Kept')), pets.create(draft('Removed'))]);
    current = A;
    await pets.update(kept.id, 1, draft('Renamed'));
    current = B;
    expect(await pets.remove(removed.id, 1)).to.equal(true);
    current = A;
    const placement = await orders.place({ petId: kept.id, at: new Date() });
    if (placement.kind !== 'placed') throw new Error(`expected a placement, got ${placement.kind}`);
    current = B;
    await orders.change(placement.order.order.id, placement.order.version, { status: 'delivered', at: new Date(), petStatus: 'sold' });
    current = A;
    const category = await categories.create('Cats' as CategoryName);
    if (category.kind !== 'created') throw new Error(`expected a category, got ${category.kind}`);
    current = B;
    await categories.rename(category.category.id, 1, 'Felines' as CategoryName);
    current = undefined;
    expect(await categories.remove(category.category.id, 2)).to.equal('removed');
    expect(tracesOf((await recorded()).slice(2))).to.deep.equal([
      [`petstore.pet.updated ${kept.id}`, A],
      [`petstore.pet.deleted ${removed.id}`, B],
      [`petstore.pet.updated ${kept.id}`, A],
      [`petstore.order.created ${kept.id}`, A],
      [`petstore.pet.updated ${kept.id}`, B],
      [`petstore.order.updated ${kept.id}`, B],
      [`petstore.category.created ${category.category.id}`, A],
      [`petstore.category.updated ${category.category.id}`, B],
      [`petstore.category.deleted ${category.category.id}`, undefined],
    ]);
  });

  it('keeps the statements of untraced events when tracing is off, and records no context', async () => {
    const statements = [
      ...Object.values(petChangeStatements(new EventRecording(pool, true, undefined))).map(({ text }) => text),
      placeOrderSql('recorded'),
      placeOrdersSql('recorded'),
      changeOrderSql('recorded'),
    ];
    for (const text of statements) expect(text).not.to.contain('traceparent');
    const pets = new PostgresPetRepository(pool, true);
    current = A;
    const pet = await pets.create(draft('Untraced'));
    await pets.update(pet.id, 1, draft('Still untraced'));
    expect(tracesOf(await recorded())).to.deep.equal([
      [`petstore.pet.created ${pet.id}`, undefined],
      [`petstore.pet.updated ${pet.id}`, undefined],
    ]);
  });
});
