// The orders of every StoreArchive adapter (since interface 1.3): written back with their own
// ids, versions, notes and times, read in id order, seen by the storage's OrderRepository as
// they were; the memory adapter is the reference.
import { expect } from 'chai';
import * as O from 'fp-ts/lib/Option.js';
import type {
  ArchivedOrder,
  ArchiveTableReader,
  CategoryId,
  OrderId,
  OrderNote,
  OrderRepository,
  OrderStatus,
  PetId,
  PetName,
  PetRepository,
  StoreArchive,
} from '../../src/domain/index.js';

export interface OrderArchiveUnderTest {
  readonly archive: StoreArchive;
  /** The orders and pets of the same storage. */
  readonly orders: OrderRepository;
  readonly pets: PetRepository;
  close(): Promise<void>;
}

const STATUSES: readonly OrderStatus[] = ['placed', 'approved', 'delivered', 'cancelled'];
const order = (id: number, petId = id, version = 1 + (id % 3)): ArchivedOrder => ({
  id: id as OrderId,
  petId: petId as PetId,
  status: STATUSES[id % 4]!,
  note: id % 2 === 0 ? (`note ${id} ✓` as OrderNote) : null,
  placedAt: new Date(Date.UTC(2026, 11, 1, 10, 0, id, 5)),
  updatedAt: new Date(Date.UTC(2026, 11, 2, 10, 0, id, 7)),
  version,
});

/** Every order of the archive, read in pages of `limit`. */
async function readAll(table: ArchiveTableReader<ArchivedOrder>, limit: number): Promise<ArchivedOrder[]> {
  const all: ArchivedOrder[] = [];
  let after: ArchivedOrder | undefined;
  for (;;) {
    const page = await table.read(after, limit);
    all.push(...page);
    if (page.length < limit) return all;
    after = page[page.length - 1];
  }
}

export function orderArchiveContract(adapterName: string, open: () => Promise<OrderArchiveUnderTest>): void {
  describe(`StoreArchive contract, orders: ${adapterName}`, () => {
    let subject: OrderArchiveUnderTest;
    beforeEach(async () => {
      subject = await open();
    });
    afterEach(() => subject.close());

    it('writes orders with their own ids, notes, times and versions, and reads them back in id order, page after page', async () => {
      const orders = [order(9), order(2), order(5), order(4)];
      expect(await subject.archive.orders.write(orders)).to.deep.equal({ kind: 'written', written: 4 });
      expect(await subject.archive.orders.count()).to.equal(4);
      expect(await readAll(subject.archive.orders, 3)).to.deep.equal([order(2), order(4), order(5), order(9)]);
      expect(await subject.archive.orders.read(order(4), 10)).to.deep.equal([order(5), order(9)]);
      expect(await subject.archive.snapshot((snapshot) => readAll(snapshot.orders, 2))).to.deep.equal([
        order(2),
        order(4),
        order(5),
        order(9),
      ]);
    });

    it('changes nothing when a batch is written again, and refuses an order stored with other content, writing nothing of its batch', async () => {
      await subject.archive.orders.write([order(1), order(2)]);
      expect(await subject.archive.orders.write([order(2), order(3)])).to.deep.equal({ kind: 'written', written: 1 });
      const moved = { ...order(1), status: 'cancelled' as const, version: 9 };
      expect(await subject.archive.orders.write([order(4), moved])).to.deep.equal({ kind: 'conflict', conflicting: [moved] });
      expect((await readAll(subject.archive.orders, 10)).map(({ id }) => id)).to.deep.equal([1, 2, 3]);
    });

    it("hands the storage's orders each order as it was: its version, and an open one holding its pet", async () => {
      // order(5) is approved (open), order(3) delivered.
      await subject.archive.orders.write([order(5, 40, 2), order(3, 41, 3)]);
      const found = await subject.orders.findVersioned(5 as OrderId);
      expect(O.toUndefined(found)?.version).to.equal(2);
      expect(O.toUndefined(found)?.order).to.deep.include({ id: 5, petId: 40, status: 'approved' });
      expect(O.toUndefined(await subject.orders.openOrderOf(40 as PetId))).to.equal(5);
      expect(O.isNone(await subject.orders.openOrderOf(41 as PetId))).to.equal(true);
    });

    it('continues the orders: the next order placed gets an id above every written one', async () => {
      await subject.archive.orders.write([order(12, 900), order(7, 901)]);
      await subject.archive.continueSequences();
      const pet = await subject.pets.create({ name: 'Rex' as PetName, categoryId: 1 as CategoryId, status: 'available' });
      const placed = await subject.orders.place({ petId: pet.id, at: new Date(Date.UTC(2026, 11, 3)) });
      expect(placed.kind === 'placed' && placed.order.order.id).to.equal(13);
    });
  });
}
