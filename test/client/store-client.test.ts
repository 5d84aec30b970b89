// The typed client's calls of the store (interface 1.3) against the real service over HTTP:
// orders placed, read, listed and moved, the inventory, and the store's errors as typed
// PetStoreErrors; every answer checked against docs/openapi.yaml.
import { expect } from 'chai';
import { clientEachTest, failure } from '../support/client-under-test.js';

describe('the typed client, the store', () => {
  const live = clientEachTest();

  it('buys a pet: places, approves and delivers its order, the inventory following', async () => {
    const rex = await live.client.createPet({ name: 'Rex', categoryId: 1 });
    expect(await live.client.getInventory()).to.deep.equal({ available: 1, pending: 0, sold: 0 });
    const placed = await live.client.placeOrder({ petId: rex.id, note: 'gift' });
    expect(placed.order).to.deep.include({ petId: rex.id, status: 'placed', note: 'gift' });
    expect(placed.order.updatedAt).to.equal(placed.order.placedAt);
    expect(placed.etag).to.equal(`"${placed.order.id}-1"`);
    expect(await live.client.getOrder(placed.order.id)).to.deep.equal(placed);
    expect(await live.client.getInventory()).to.deep.equal({ available: 0, pending: 1, sold: 0 });
    const approved = await live.client.changeOrder(placed.order.id, 'approved', { ifMatch: placed.etag });
    expect([approved.order.status, approved.etag]).to.deep.equal(['approved', `"${placed.order.id}-2"`]);
    const delivered = await live.client.changeOrder(placed.order.id, 'delivered');
    expect(delivered.order.status).to.equal('delivered');
    expect((await live.client.getPet(rex.id)).status).to.equal('sold');
    expect(await live.client.getInventory()).to.deep.equal({ available: 0, pending: 0, sold: 1 });
  });

  it('places an order once per idempotency key, however often it is sent', async () => {
    const rex = await live.client.createPet({ name: 'Rex', categoryId: 1 });
    const first = await live.client.placeOrder({ petId: rex.id }, { idempotencyKey: 'order-rex' });
    expect(await live.client.placeOrder({ petId: rex.id }, { idempotencyKey: 'order-rex' })).to.deep.equal(first);
    const reused = await failure(live.client.placeOrder({ petId: rex.id, note: 'other' }, { idempotencyKey: 'order-rex' }));
    expect([reused.status, reused.code]).to.deep.equal([422, 'idempotency_key_reused']);
  });

  it("tells the store's refusals as typed errors: unavailable, unknown pet, no order, a wrong move, a stale ETag", async () => {
    const sold = await live.client.createPet({ name: 'Rex', categoryId: 1, status: 'sold' });
    const unavailable = await failure(live.client.placeOrder({ petId: sold.id }));
    expect([unavailable.status, unavailable.code, unavailable.details[0]?.currentStatus]).to.deep.equal([409, 'pet_unavailable', 'sold']);
    const unknown = await failure(live.client.placeOrder({ petId: sold.id + 1 }));
    expect([unknown.status, unknown.code]).to.deep.equal([422, 'unknown_pet']);
    const missing = await failure(live.client.getOrder(99));
    expect([missing.status, missing.code]).to.deep.equal([404, 'order_not_found']);
    const pet = await live.client.createPet({ name: 'Tom', categoryId: 1 });
    const { order, etag } = await live.client.placeOrder({ petId: pet.id });
    await live.client.changeOrder(order.id, 'cancelled');
    const wrong = await failure(live.client.changeOrder(order.id, 'approved'));
    expect([wrong.status, wrong.code]).to.deep.equal([409, 'invalid_transition']);
    const stale = await failure(live.client.changeOrder(order.id, 'cancelled', { ifMatch: etag }));
    expect([stale.status, stale.code]).to.deep.equal([412, 'precondition_failed']);
    expect(await live.client.getOrder(0).catch((err: unknown) => err)).to.be.instanceOf(TypeError);
  });

  it('lists orders by page, filtered by status or pet, and walks every page', async () => {
    const pets = await Promise.all([1, 2, 3].map((n) => live.client.createPet({ name: `Pet ${n}`, categoryId: 1 })));
    const orders = [];
    for (const pet of pets) orders.push((await live.client.placeOrder({ petId: pet.id })).order);
    await live.client.changeOrder(orders[1]!.id, 'approved');
    const first = await live.client.listOrders({ limit: 2 });
    expect(first.orders.map((o) => o.id)).to.deep.equal([orders[0]!.id, orders[1]!.id]);
    const second = await live.client.nextOrderPage(first);
    expect(second?.orders.map((o) => o.id)).to.deep.equal([orders[2]!.id]);
    expect(await live.client.nextOrderPage(second!)).to.equal(undefined);
    expect((await live.client.listOrders({ status: 'placed' })).orders.map((o) => o.id)).to.deep.equal([orders[0]!.id, orders[2]!.id]);
    expect((await live.client.listOrders({ petId: pets[1]!.id })).orders.map((o) => o.status)).to.deep.equal(['approved']);
    const all = [];
    for await (const order of live.client.allOrders({ limit: 1 })) all.push(order.id);
    expect(all).to.deep.equal(orders.map((o) => o.id));
  });
});
