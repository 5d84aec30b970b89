// Part of orderRepositoryContract: the inventory kept with every change, the events an order
// records with its pet's, and the races an order must win or lose whole, on every storage.
import { expect } from 'chai';
import * as O from 'fp-ts/lib/Option.js';
import type { PetStatus } from '../../src/domain/index.js';
import { AT, later, type OrderStorage, placed } from './order-repository.contract.js';
import { draft } from './pet-repository.contract.js';

/** The tests of inventory, events and races, inside orderRepositoryContract's describe, on the storage it opened for each test. */
export function orderRacesContract(storage: () => OrderStorage): void {
  describe('inventory, events and races', () => {
    it('keeps the inventory exact through creates, changes, orders and deletions', async () => {
      const { pets, orders, inventory } = storage();
      expect(await inventory.count()).to.deep.equal({ available: 0, pending: 0, sold: 0 });
      const created = [];
      for (const status of ['available', 'available', 'available', 'pending', 'sold'] as PetStatus[])
        created.push(await pets.create(draft(status, status)));
      expect(await inventory.count()).to.deep.equal({ available: 3, pending: 1, sold: 1 });
      await pets.update(created[0]!.id, 1, draft('renamed', 'available'));
      await pets.update(created[1]!.id, 1, draft('sold now', 'sold'));
      expect(await inventory.count()).to.deep.equal({ available: 2, pending: 1, sold: 2 });
      const order = placed(await orders.place({ petId: created[2]!.id, at: AT }));
      expect(await inventory.count()).to.deep.equal({ available: 1, pending: 2, sold: 2 });
      await orders.change(order.order.id, 1, { status: 'cancelled', at: later(1), petStatus: 'available' });
      expect(await inventory.count()).to.deep.equal({ available: 2, pending: 1, sold: 2 });
      expect(await pets.remove(created[4]!.id, 1)).to.equal(true);
      expect(await pets.remove(created[3]!.id, 1)).to.equal(true);
      expect(await inventory.count()).to.deep.equal({ available: 2, pending: 0, sold: 1 });
    });

    it("records an order's events after its pet's, in the placement's and the change's own steps", async () => {
      const { pets, orders, outbox } = storage();
      const pet = await pets.create(draft('Rex'));
      const order = placed(await orders.place({ petId: pet.id, at: AT }));
      const delivered = O.toUndefined(await orders.change(order.order.id, 1, { status: 'approved', at: later(1) }))!;
      const done = O.toUndefined(
        await orders.change(order.order.id, delivered.version, { status: 'delivered', at: later(2), petStatus: 'sold' }),
      )!;
      const { events } = await outbox.read('test', 100);
      const orderJson = (o: typeof order.order) => ({
        id: o.id,
        petId: o.petId,
        status: o.status,
        placedAt: o.placedAt.toISOString(),
        updatedAt: o.updatedAt.toISOString(),
      });
      expect(events.map(({ type, petId, data }) => ({ type, petId, data }))).to.deep.equal([
        { type: 'petstore.pet.created', petId: pet.id, data: pet },
        { type: 'petstore.pet.updated', petId: pet.id, data: { ...pet, status: 'pending' } },
        { type: 'petstore.order.created', petId: pet.id, data: orderJson(order.order) },
        { type: 'petstore.order.updated', petId: pet.id, data: orderJson(delivered.order) },
        { type: 'petstore.pet.updated', petId: pet.id, data: { ...pet, status: 'sold' } },
        { type: 'petstore.order.updated', petId: pet.id, data: orderJson(done.order) },
      ]);
      // The same bytes on every storage: keys in the interface's order.
      expect(JSON.stringify(events[2]!.data)).to.equal(JSON.stringify(orderJson(order.order)));
    });

    it('places exactly one of 50 concurrent orders for one pet, all 50 in flight together', async () => {
      const { pets, orders } = storage();
      const pet = await pets.create(draft('Rex'));
      let inFlight = 0;
      let most = 0;
      const placements = await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          inFlight += 1;
          most = Math.max(most, inFlight);
          const placement = await orders.place({ petId: pet.id, at: later(i) });
          inFlight -= 1;
          return placement;
        }),
      );
      expect(most, 'every placement was asked for before any was answered').to.equal(50);
      expect(placements.filter((p) => p.kind === 'placed')).to.have.length(1);
      expect(placements.filter((p) => p.kind === 'not-available')).to.have.length(49);
      expect(await orders.list({ limit: 100 })).to.have.length(1);
      expect(O.toUndefined(await pets.findVersioned(pet.id))).to.deep.equal({ pet: { ...pet, status: 'pending' }, version: 2 });
    });

    it('never leaves an order on a pet that a racing change sold or a racing deletion removed', async () => {
      const { pets, orders } = storage();
      for (let round = 0; round < 10; round += 1) {
        const sold = await pets.create(draft(`sold ${round}`));
        const gone = await pets.create(draft(`gone ${round}`));
        const [soldPlacement, sale, gonePlacement, removal] = await Promise.all([
          orders.place({ petId: sold.id, at: AT }),
          pets.update(sold.id, 1, draft(`sold ${round}`, 'sold')),
          orders.place({ petId: gone.id, at: AT }),
          pets.remove(gone.id, 1),
        ]);
        // Each pair: exactly one of the two wrote (the placement bumps the pet's version).
        expect([soldPlacement.kind === 'placed', O.isSome(sale)].filter(Boolean), `round ${round}: sale`).to.have.length(1);
        expect([gonePlacement.kind === 'placed', removal].filter(Boolean), `round ${round}: removal`).to.have.length(1);
        const soldNow = O.toUndefined(await pets.findById(sold.id))!;
        expect(soldNow.status).to.equal(soldPlacement.kind === 'placed' ? 'pending' : 'sold');
        expect(O.isSome(await pets.findById(gone.id))).to.equal(gonePlacement.kind === 'placed');
      }
    });
  });
}
