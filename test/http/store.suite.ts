// Interface 1.3 over real HTTP: orders that reserve a pet, their moves, the pets they hold, and
// the inventory. Runs on every storage adapter (see store.test.ts).
import { expect } from 'chai';
import { expectError } from '../support/expect-error.js';
import { serveEachTest, type TestDatabase } from '../support/test-server.js';

const MERGE_PATCH = { 'Content-Type': 'application/merge-patch+json' };

export function storeSuite(name: string, database: () => TestDatabase | Promise<TestDatabase>): void {
  describe(`HTTP API 1.3, the store, on ${name}`, () => {
    const live = serveEachTest(database);
    const api = () => live.api;
    const createPet = async (status = 'available') => (await api().postJson('/v1/pets', { name: 'Rex', categoryId: 7, status })).json;
    const order = (petId: number, headers: Record<string, string> = {}, note?: string) =>
      api().postJson('/v1/orders', note === undefined ? { petId } : { petId, note }, headers);
    const move = (id: number, status: string, headers: Record<string, string> = {}) =>
      api().send(`/v1/orders/${id}`, { method: 'PATCH', headers: { ...MERGE_PATCH, ...headers }, body: JSON.stringify({ status }) });
    const inventory = async () => (await api().get('/v1/store/inventory')).json;

    it('buys a pet from order to delivery: the pet pending, then sold, each a new version; the inventory follows', async () => {
      const pet = await createPet();
      await createPet('sold');
      expect(await inventory()).to.deep.equal({ available: 1, pending: 0, sold: 1 });
      const placed = await order(pet.id, {}, 'gift');
      expect(placed.status, placed.text).to.equal(201);
      const id = placed.json.id;
      expect(placed.json).to.deep.equal({
        id,
        petId: pet.id,
        status: 'placed',
        placedAt: placed.json.placedAt,
        updatedAt: placed.json.placedAt,
        note: 'gift',
      });
      expect(placed.headers['location']).to.equal(`/v1/orders/${id}`);
      expect(placed.headers['etag']).to.equal(`"${id}-1"`);
      const reserved = await api().get(`/v1/pets/${pet.id}`);
      expect([reserved.json.status, reserved.headers['etag']]).to.deep.equal(['pending', `"${pet.id}-2"`]);
      expect(await inventory()).to.deep.equal({ available: 0, pending: 1, sold: 1 });
      const approved = await move(id, 'approved', { 'If-Match': `"${id}-1"` });
      expect([approved.status, approved.json.status, approved.headers['etag']]).to.deep.equal([200, 'approved', `"${id}-2"`]);
      const delivered = await move(id, 'delivered');
      expect([delivered.status, delivered.json.status]).to.deep.equal([200, 'delivered']);
      expect((await api().get(`/v1/orders/${id}`)).json).to.deep.equal(delivered.json);
      const sold = await api().get(`/v1/pets/${pet.id}`);
      expect([sold.json.status, sold.headers['etag']]).to.deep.equal(['sold', `"${pet.id}-3"`]);
      expect(await inventory()).to.deep.equal({ available: 0, pending: 0, sold: 2 });
      expectError(await move(id, 'cancelled'), 409, 'invalid_transition');
    });

    it('refuses an order for a pet that is not available, or does not exist, naming it', async () => {
      const pending = await createPet('pending');
      const refused = await order(pending.id);
      expectError(refused, 409, 'pet_unavailable');
      expect(refused.json.details[0]).to.deep.include({ field: '/petId', currentStatus: 'pending' });
      const missing = await order(pending.id + 1);
      expectError(missing, 422, 'unknown_pet');
      expect(missing.json.message).to.contain(String(pending.id + 1));
      expectError(await order(0), 400, 'validation_failed');
      expectError(await api().postJson('/v1/orders', { petId: pending.id, extra: 1 }), 400, 'validation_failed');
      expect((await api().get('/v1/orders')).json).to.deep.equal([]);
    });

    it('cancels an order: the pet is available again, and can be ordered anew', async () => {
      const pet = await createPet();
      const first = (await order(pet.id)).json;
      expectError(await move(first.id, 'delivered'), 409, 'invalid_transition');
      expectError(await move(first.id, 'approved', { 'If-Match': `"${first.id}-9"` }), 412, 'precondition_failed');
      expect((await move(first.id, 'cancelled')).json.status).to.equal('cancelled');
      expect((await api().get(`/v1/pets/${pet.id}`)).json.status).to.equal('available');
      const second = await order(pet.id);
      expect(second.status).to.equal(201);
      expect(second.json.id).to.be.greaterThan(first.id);
      expectError(await api().get(`/v1/orders/${second.json.id + 1}`), 404, 'order_not_found');
      expectError(await api().get('/v1/orders/99999999999999999'), 404, 'order_not_found');
      expectError(await api().get('/v1/orders/x'), 400, 'invalid_parameter');
    });

    it("refuses a change of a held pet's status and its deletion with pet_reserved, but not a new name", async () => {
      const pet = await createPet();
      const placed = (await order(pet.id)).json;
      const patchPet = (body: unknown) =>
        api().send(`/v1/pets/${pet.id}`, { method: 'PATCH', headers: MERGE_PATCH, body: JSON.stringify(body) });
      for (const status of ['sold', 'available']) {
        const refused = await patchPet({ status });
        expectError(refused, 409, 'pet_reserved');
        expect(refused.json.details[0].orderId).to.equal(placed.id);
      }
      expectError(await api().send(`/v1/pets/${pet.id}`, { method: 'DELETE' }), 409, 'pet_reserved');
      expect((await patchPet({ name: 'Rex II', status: 'pending' })).json).to.deep.equal({ ...pet, name: 'Rex II', status: 'pending' });
      await move(placed.id, 'cancelled');
      expect((await api().send(`/v1/pets/${pet.id}`, { method: 'DELETE' })).status).to.equal(204);
    });

    it('places at most once per Idempotency-Key, answering a retry with the order as placed', async () => {
      const [rex, tom] = [await createPet(), await createPet()];
      const first = await order(rex.id, { 'Idempotency-Key': '"o-1"' });
      await move(first.json.id, 'approved');
      const replay = await order(rex.id, { 'Idempotency-Key': '"o-1"' });
      expect([replay.status, replay.json, replay.headers['etag'], replay.headers['idempotent-replayed']]).to.deep.equal([
        201,
        first.json,
        first.headers['etag'],
        'true',
      ]);
      expectError(await order(tom.id, { 'Idempotency-Key': '"o-1"' }), 422, 'idempotency_key_reused');
      expect((await api().get('/v1/orders')).json).to.have.length(1);
    });

    it('lists orders in id order, filtered by status and pet, paged with a cursor bound to its filters', async () => {
      const pets = [await createPet(), await createPet(), await createPet()];
      const orders = [];
      for (const pet of pets) orders.push((await order(pet.id)).json);
      await move(orders[1].id, 'approved');
      const page = await api().get('/v1/orders?limit=2');
      expect(page.json.map((o: { id: number }) => o.id)).to.deep.equal([orders[0].id, orders[1].id]);
      const next = /<([^>]+)>; rel="next"/.exec(String(page.headers['link']))![1]!;
      expect((await api().get(next)).json.map((o: { id: number }) => o.id)).to.deep.equal([orders[2].id]);
      expect((await api().get('/v1/orders?status=placed')).json.map((o: { id: number }) => o.id)).to.deep.equal([
        orders[0].id,
        orders[2].id,
      ]);
      expect((await api().get(`/v1/orders?petId=${pets[1].id}`)).json.map((o: { status: string }) => o.status)).to.deep.equal(['approved']);
      const cursor = new URL(next, 'http://x').searchParams.get('cursor')!;
      expectError(await api().get(`/v1/orders?status=placed&cursor=${cursor}`), 400, 'invalid_parameter');
      expectError(await api().get('/v1/orders?status=lost'), 400, 'invalid_parameter');
    });
  });
}
