// The typed client's calls of the store (interface 1.3) against the real service over HTTP:
// orders placed, read, listed and moved, the inventory, and the store's errors as typed
// PetStoreErrors; every answer checked against docs/openapi.yaml.
import { expect } from 'chai';
import { PetStoreClient, PetStoreError } from '../../src/client/index.js';
import { checkedFetch } from '../support/checked-fetch.js';
import { startTestServer, TEST_API_KEY, type TestServer } from '../support/test-server.js';

async function failure(promise: Promise<unknown>): Promise<PetStoreError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof PetStoreError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
}

describe('the typed client, the store', () => {
  let server: TestServer;
  let client: PetStoreClient;
  beforeEach(async () => {
    server = await startTestServer({ kind: 'memory' });
    client = new PetStoreClient({ baseUrl: `${server.url}/v1`, apiKey: TEST_API_KEY, fetch: checkedFetch, retry: { attempts: 1 } });
  });
  afterEach(() => server.close());

  it('buys a pet: places, approves and delivers its order, the inventory following', async () => {
    const rex = await client.createPet({ name: 'Rex', categoryId: 1 });
    expect(await client.getInventory()).to.deep.equal({ available: 1, pending: 0, sold: 0 });
    const placed = await client.placeOrder({ petId: rex.id, note: 'gift' });
    expect(placed.order).to.deep.include({ petId: rex.id, status: 'placed', note: 'gift' });
    expect(placed.order.updatedAt).to.equal(placed.order.placedAt);
    expect(placed.etag).to.equal(`"${placed.order.id}-1"`);
    expect(await client.getOrder(placed.order.id)).to.deep.equal(placed);
    expect(await client.getInventory()).to.deep.equal({ available: 0, pending: 1, sold: 0 });
    const approved = await client.changeOrder(placed.order.id, 'approved', { ifMatch: placed.etag });
    expect([approved.order.status, approved.etag]).to.deep.equal(['approved', `"${placed.order.id}-2"`]);
    const delivered = await client.changeOrder(placed.order.id, 'delivered');
    expect(delivered.order.status).to.equal('delivered');
    expect((await client.getPet(rex.id)).status).to.equal('sold');
    expect(await client.getInventory()).to.deep.equal({ available: 0, pending: 0, sold: 1 });
  });

  it('places an order once per idempotency key, however often it is sent', async () => {
    const rex = await client.createPet({ name: 'Rex', categoryId: 1 });
    const first = await client.placeOrder({ petId: rex.id }, { idempotencyKey: 'order-rex' });
    expect(await client.placeOrder({ petId: rex.id }, { idempotencyKey: 'order-rex' })).to.deep.equal(first);
    const reused = await failure(client.placeOrder({ petId: rex.id, note: 'other' }, { idempotencyKey: 'order-rex' }));
    expect([reused.status, reused.code]).to.deep.equal([422, 'idempotency_key_reused']);
  });

  it("tells the store's refusals as typed errors: unavailable, unknown pet, no order, a wrong move, a stale ETag", async () => {
    const sold = await client.createPet({ name: 'Rex', categoryId: 1, status: 'sold' });
    const unavailable = await failure(client.placeOrder({ petId: sold.id }));
    expect([unavailable.status, unavailable.code, unavailable.details[0]?.currentStatus]).to.deep.equal([409, 'pet_unavailable', 'sold']);
    const unknown = await failure(client.placeOrder({ petId: sold.id + 1 }));
    expect([unknown.status, unknown.code]).to.deep.equal([422, 'unknown_pet']);
    const missing = await failure(client.getOrder(99));
    expect([missing.status, missing.code]).to.deep.equal([404, 'order_not_found']);
    const pet = await client.createPet({ name: 'Tom', categoryId: 1 });
    const { order, etag } = await client.placeOrder({ petId: pet.id });
    await client.changeOrder(order.id, 'cancelled');
    const wrong = await failure(client.changeOrder(order.id, 'approved'));
    expect([wrong.status, wrong.code]).to.deep.equal([409, 'invalid_transition']);
    const stale = await failure(client.changeOrder(order.id, 'cancelled', { ifMatch: etag }));
    expect([stale.status, stale.code]).to.deep.equal([412, 'precondition_failed']);
    expect(await client.getOrder(0).catch((err: unknown) => err)).to.be.instanceOf(TypeError);
  });

  it('lists orders by page, filtered by status or pet, and walks every page', async () => {
    const pets = await Promise.all([1, 2, 3].map((n) => client.createPet({ name: `Pet ${n}`, categoryId: 1 })));
    const orders = [];
    for (const pet of pets) orders.push((await client.placeOrder({ petId: pet.id })).order);
    await client.changeOrder(orders[1]!.id, 'approved');
    const first = await client.listOrders({ limit: 2 });
    expect(first.orders.map((o) => o.id)).to.deep.equal([orders[0]!.id, orders[1]!.id]);
    const second = await client.nextOrderPage(first);
    expect(second?.orders.map((o) => o.id)).to.deep.equal([orders[2]!.id]);
    expect(await client.nextOrderPage(second!)).to.equal(undefined);
    expect((await client.listOrders({ status: 'placed' })).orders.map((o) => o.id)).to.deep.equal([orders[0]!.id, orders[2]!.id]);
    expect((await client.listOrders({ petId: pets[1]!.id })).orders.map((o) => o.status)).to.deep.equal(['approved']);
    const all = [];
    for await (const order of client.allOrders({ limit: 1 })) all.push(order.id);
    expect(all).to.deep.equal(orders.map((o) => o.id));
  });
});
