// Fifty orders for one available pet, half through each of two server processes on one
// PostgreSQL database: exactly one 201 and 49 409 pet_unavailable. The race is made to happen on
// the reservation itself: the test holds the pet's row lock until PostgreSQL's own
// pg_stat_activity shows the placements waiting on it, and no answer has come before it lets go.
// Placements without a key share a statement with the others of their instance's turn, so each
// instance's batch waits; with a key each waits alone (each instance's pool has a connection for
// each of its twenty-five), and all fifty are seen waiting.
import { expect } from 'chai';
import { describeWithPostgres } from '../support/postgres.js';
import { rowLockRaceEachTest } from '../support/row-lock-race.js';
import { timeoutForProcesses } from '../support/server-process.js';

const KEY = 'order-race-across-instances-key-0123';
const ORDERS = 50;

describeWithPostgres('fifty orders for one pet across two server instances', () => {
  const race = rowLockRaceEachTest();

  for (const keyed of [false, true]) {
    const waitingStatements = keyed ? ORDERS : 2;
    const proof = keyed ? `all ${ORDERS} placements` : "each instance's batch of placements";
    it(`places one order and refuses 49 with pet_unavailable${keyed ? ', each with a key' : ''}, ${proof} proven waiting on the pet at once`, async function () {
      this.timeout(timeoutForProcesses(2) + 20_000);
      const { locker, waiting, serve } = race.current;
      const [a, b] = await serve(2, KEY, { PETSTORE_PG_POOL_SIZE: String(ORDERS / 2) });
      const created = await a!.postJson('/v1/pets', { name: 'Wanted', categoryId: 1, status: 'available' });
      expect(created.status, created.text).to.equal(201);
      const { id } = created.json as { id: number };

      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM pets WHERE id = $1 FOR UPDATE', [id]);
      let answered = 0;
      const answers = Promise.all(
        Array.from({ length: ORDERS }, (_, i) =>
          (i % 2 === 0 ? a! : b!)
            .postJson('/v1/orders', { petId: id }, keyed ? { 'idempotency-key': `order-race-${i}` } : {})
            .finally(() => (answered += 1)),
        ),
      );
      await waiting(waitingStatements, 'INSERT INTO orders', `${proof} waiting on the pet's row`);
      expect(answered, 'answers before the pet was let go').to.equal(0);
      await locker.query('ROLLBACK');

      const results = await answers;
      const placed = results.filter((r) => r.status === 201);
      const refused = results.filter((r) => r.status === 409);
      expect([placed.length, refused.length], results.map((r) => r.text).join('\n')).to.deep.equal([1, ORDERS - 1]);
      for (const refusal of refused) expect((refusal.json as { code: string }).code).to.equal('pet_unavailable');
      // Through either instance: the pet pending, and the one order for it.
      expect(((await b!.get(`/v1/pets/${id}`)).json as { status: string }).status).to.equal('pending');
      const orders = await a!.get(`/v1/orders?petId=${id}`);
      expect(orders.json).to.deep.equal([placed[0]!.json]);
    });
  }
});
