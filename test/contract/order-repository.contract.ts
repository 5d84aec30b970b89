// The behaviour every OrderRepository adapter must have, with the PetRepository whose pets its
// orders reserve, the inventory of those pets and the outbox both record into, on one storage.
// The memory adapter is its reference; each adapter runs this same suite (order-repository.test.ts).
import { expect } from 'chai';
import * as O from 'fp-ts/lib/Option.js';
import type {
  EventOutbox,
  OrderId,
  OrderKey,
  OrderNote,
  OrderPlacement,
  OrderRepository,
  PetId,
  PetInventory,
  PetRepository,
  VersionedOrder,
} from '../../src/domain/index.js';
import { orderRacesContract } from './order-races.contract.js';
import { draft } from './pet-repository.contract.js';

/** The ports of one storage that orders involve. */
export interface OrderStorage {
  readonly orders: OrderRepository;
  readonly pets: PetRepository;
  readonly inventory: PetInventory;
  readonly outbox: EventOutbox;
}

export interface OrderStorageUnderTest extends OrderStorage {
  close(): Promise<void>;
}

export const AT = new Date('2026-12-01T10:00:00.000Z');
export const later = (ms: number) => new Date(AT.getTime() + ms);

/** The order a placement placed (it must have). */
export function placed(placement: OrderPlacement): VersionedOrder {
  expect(placement.kind, JSON.stringify(placement)).to.equal('placed');
  return (placement as { order: VersionedOrder }).order;
}

const keyOf = (key: string, fingerprint = 'f', expiresAt = later(60_000)): OrderKey => ({ scope: 'caller', key, fingerprint, expiresAt });

export function orderRepositoryContract(adapterName: string, open: () => Promise<OrderStorageUnderTest>): void {
  describe(`OrderRepository contract: ${adapterName}`, () => {
    let subject: OrderStorageUnderTest;
    let orders: OrderRepository;
    let pets: PetRepository;
    beforeEach(async () => {
      subject = await open();
      ({ orders, pets } = subject);
    });
    afterEach(async () => subject.close());

    orderRacesContract(() => subject);

    it('places an order for an available pet: placed at version 1, its pet pending at a new version', async () => {
      const pet = await pets.create(draft('Rex'));
      const order = placed(await orders.place({ petId: pet.id, note: 'gift wrap' as OrderNote, at: AT }));
      expect(order).to.deep.equal({
        order: { id: order.order.id, petId: pet.id, status: 'placed', placedAt: AT, updatedAt: AT, note: 'gift wrap' },
        version: 1,
      });
      expect(order.order.id).to.be.greaterThan(0);
      expect(await orders.findVersioned(order.order.id)).to.deep.equal(O.some(order));
      expect(await pets.findVersioned(pet.id)).to.deep.equal(O.some({ pet: { ...pet, status: 'pending' }, version: 2 }));
      expect(await orders.openOrderOf(pet.id)).to.deep.equal(O.some(order.order.id));
    });

    it('keeps an order without a note without one', async () => {
      const pet = await pets.create(draft('Rex'));
      const order = placed(await orders.place({ petId: pet.id, at: AT }));
      expect(order.order).not.to.have.property('note');
      expect(O.toUndefined(await orders.findVersioned(order.order.id))!.order).not.to.have.property('note');
    });

    it('places nothing for a pet that is pending, sold or missing', async () => {
      const pending = await pets.create(draft('P', 'pending'));
      const sold = await pets.create(draft('S', 'sold'));
      for (const petId of [pending.id, sold.id, (sold.id + 1) as PetId])
        expect(await orders.place({ petId, at: AT }), `pet ${petId}`).to.deep.equal({ kind: 'not-available' });
      expect(await orders.list({ limit: 10 })).to.deep.equal([]);
      expect(await pets.findVersioned(pending.id)).to.deep.equal(O.some({ pet: pending, version: 1 }));
    });

    it('gives each order a larger id, lists them in id order, filtered and paged, never deletes one', async () => {
      const rex = await pets.create(draft('Rex'));
      const tom = await pets.create(draft('Tom'));
      const first = placed(await orders.place({ petId: rex.id, at: AT }));
      const cancelled = O.toUndefined(
        await orders.change(first.order.id, 1, { status: 'cancelled', at: later(1), petStatus: 'available' }),
      )!;
      const second = placed(await orders.place({ petId: rex.id, at: later(2) }));
      const third = placed(await orders.place({ petId: tom.id, at: later(3) }));
      expect(second.order.id).to.be.greaterThan(first.order.id);
      expect(third.order.id).to.be.greaterThan(second.order.id);
      const all = [cancelled.order, second.order, third.order];
      expect(await orders.list({ limit: 10 })).to.deep.equal(all);
      expect(await orders.list({ limit: 2 })).to.deep.equal(all.slice(0, 2));
      expect(await orders.list({ limit: 10, afterId: first.order.id })).to.deep.equal(all.slice(1));
      expect(await orders.list({ limit: 10, status: 'placed' })).to.deep.equal(all.slice(1));
      expect(await orders.list({ limit: 10, petId: rex.id })).to.deep.equal(all.slice(0, 2));
      expect(await orders.list({ limit: 10, petId: rex.id, status: 'cancelled' })).to.deep.equal([cancelled.order]);
      expect(await orders.list({ limit: 10, petId: tom.id, afterId: third.order.id })).to.deep.equal([]);
      expect(await orders.findVersioned((third.order.id + 1) as OrderId)).to.deep.equal(O.none);
    });

    it('changes an order at its version, moving its pet in the same step; a lost version changes nothing', async () => {
      const pet = await pets.create(draft('Rex'));
      const order = placed(await orders.place({ petId: pet.id, at: AT }));
      const approved = O.toUndefined(await orders.change(order.order.id, 1, { status: 'approved', at: later(1) }))!;
      expect(approved).to.deep.equal({ order: { ...order.order, status: 'approved', updatedAt: later(1) }, version: 2 });
      expect(await pets.findVersioned(pet.id), 'an approval leaves the pet').to.deep.equal(
        O.some({ pet: { ...pet, status: 'pending' }, version: 2 }),
      );
      expect(await orders.change(order.order.id, 1, { status: 'delivered', at: later(2), petStatus: 'sold' })).to.deep.equal(O.none);
      expect(await orders.change((order.order.id + 1) as OrderId, 1, { status: 'delivered', at: later(2) })).to.deep.equal(O.none);
      const delivered = O.toUndefined(await orders.change(order.order.id, 2, { status: 'delivered', at: later(2), petStatus: 'sold' }))!;
      expect(delivered.version).to.equal(3);
      expect(await orders.findVersioned(order.order.id)).to.deep.equal(O.some(delivered));
      expect(await pets.findVersioned(pet.id)).to.deep.equal(O.some({ pet: { ...pet, status: 'sold' }, version: 3 }));
      expect(await orders.openOrderOf(pet.id)).to.deep.equal(O.none);
    });

    it('answers the placement of a live key instead of placing again, and forgets a key once it expires', async () => {
      const rex = await pets.create(draft('Rex'));
      const tom = await pets.create(draft('Tom'));
      const order = placed(await orders.place({ petId: rex.id, at: AT, key: keyOf('k1') }));
      const again = await orders.place({ petId: tom.id, at: later(1), key: keyOf('k1', 'other') });
      expect(again).to.deep.equal({ kind: 'keyed', keyed: { fingerprint: 'f', order: order.order } });
      expect(await pets.findVersioned(tom.id), 'nothing placed for the retry').to.deep.equal(O.some({ pet: tom, version: 1 }));
      expect(await orders.findKeyed({ scope: 'caller', key: 'k1' }, later(1))).to.deep.equal(
        O.some({ fingerprint: 'f', order: order.order }),
      );
      expect(await orders.findKeyed({ scope: 'other caller', key: 'k1' }, later(1))).to.deep.equal(O.none);
      expect(await orders.findKeyed({ scope: 'caller', key: 'k1' }, later(60_000)), 'expired').to.deep.equal(O.none);
      const after = placed(await orders.place({ petId: tom.id, at: later(60_000), key: keyOf('k1', 'g', later(120_000)) }));
      expect(await orders.findKeyed({ scope: 'caller', key: 'k1' }, later(60_001))).to.deep.equal(
        O.some({ fingerprint: 'g', order: after.order }),
      );
    });

    it('keeps no key for a placement that placed nothing', async () => {
      const sold = await pets.create(draft('Sold', 'sold'));
      expect((await orders.place({ petId: sold.id, at: AT, key: keyOf('k2') })).kind).to.equal('not-available');
      expect(await orders.findKeyed({ scope: 'caller', key: 'k2' }, AT)).to.deep.equal(O.none);
    });
  });
}
