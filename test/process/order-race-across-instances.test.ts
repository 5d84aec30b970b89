// Fifty orders for one available pet, half through each of two server processes on one
// PostgreSQL database: exactly one 201 and 49 409 pet_unavailable. The race is made to happen on
// the reservation itself: the test holds the pet's row lock until PostgreSQL's own
// pg_stat_activity shows all fifty placements waiting on it (each instance's pool has a
// connection for each of its twenty-five), and no answer has come before it lets go.
import { expect } from 'chai';
import pg from 'pg';
import { clientFor } from '../support/http-client.js';
import { eventually } from '../support/eventually.js';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../support/postgres.js';
import { baseUrlOf, type ServerProcess, spawnServer, stopIfRunning, timeoutForProcesses } from '../support/server-process.js';

const KEY = 'order-race-across-instances-key-0123';
const ORDERS = 50;

describeWithPostgres('fifty orders for one pet across two server instances', () => {
  let schema: TestSchema;
  let instances: ServerProcess[] = [];
  let locker: pg.Client;
  let watcher: pg.Client;

  beforeEach(async () => {
    schema = await createTestSchema();
    locker = new pg.Client({ connectionString: schema.url });
    watcher = new pg.Client({ connectionString: schema.url });
    await Promise.all([locker.connect(), watcher.connect()]);
  });
  afterEach(async () => {
    for (const instance of instances) await stopIfRunning(instance);
    instances = [];
    await Promise.all([locker.end(), watcher.end()]);
    await schema.drop();
  });

  it('places one order and refuses 49 with pet_unavailable, all fifty proven waiting on the pet at once', async function () {
    this.timeout(timeoutForProcesses(2) + 20_000);
    const env = { PETSTORE_DB: schema.url, PETSTORE_API_KEYS: KEY, PETSTORE_PG_POOL_SIZE: String(ORDERS / 2) };
    instances = [spawnServer(env), spawnServer(env)];
    const [a, b] = await Promise.all(instances.map(async (instance) => clientFor(new URL(await baseUrlOf(instance)).origin, KEY)));
    const created = await a!.postJson('/v1/pets', { name: 'Wanted', categoryId: 1, status: 'available' });
    expect(created.status, created.text).to.equal(201);
    const { id } = created.json as { id: number };

    await locker.query('BEGIN');
    await locker.query('SELECT 1 FROM pets WHERE id = $1 FOR UPDATE', [id]);
    let answered = 0;
    const answers = Promise.all(
      Array.from({ length: ORDERS }, (_, i) =>
        (i % 2 === 0 ? a! : b!).postJson('/v1/orders', { petId: id }).finally(() => (answered += 1)),
      ),
    );
    // Every placement, from both instances, has read the pet and waits on its row.
    await eventually(
      async () => {
        const { rows } = await watcher.query<{ waiting: string }>(
          `SELECT count(*) AS waiting FROM pg_stat_activity
          WHERE wait_event_type = 'Lock' AND query LIKE '%INSERT INTO orders%' AND pid <> pg_backend_pid()`,
        );
        return Number(rows[0]!.waiting) === ORDERS;
      },
      `all ${ORDERS} placements waiting on the pet's row`,
      1500,
    );
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
});
