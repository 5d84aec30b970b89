// The EventOutbox contract, with the PetRepository that records into it: what every storage
// does with change events. An event exists exactly for each change that happened, in the
// change's order, with the pet as it is after it; the relay's reads, marks, pruning, lease and
// wake-ups behave alike everywhere.
import { expect } from 'chai';
import * as O from 'fp-ts/lib/Option.js';
import type { EventOutbox, Pet, PetDraft, PetEvent, PetRepository } from '../../src/domain/index.js';
import { CategoryId, FIRST_PET_VERSION, PetName } from '../../src/domain/index.js';

/** A repository and the outbox it records into, on one storage. */
export interface RecordingStorage {
  readonly pets: PetRepository;
  readonly outbox: EventOutbox;
  close(): Promise<void>;
}

const draft = (name: string, status: PetDraft['status'] = 'available'): PetDraft => ({
  name: name as PetName,
  categoryId: 7 as CategoryId,
  status,
});

/** What `transport` reads, its events alone. */
const waiting = async (outbox: EventOutbox, limit: number, transport = 'test') => (await outbox.read(transport, limit)).events;

const summary = (events: readonly PetEvent[]) => events.map(({ type, petId, data }) => ({ type, petId, data }));

export function eventOutboxContract(name: string, open: () => Promise<RecordingStorage>): void {
  describe(`EventOutbox contract: ${name}`, () => {
    let storage: RecordingStorage;
    beforeEach(async () => {
      storage = await open();
    });
    afterEach(() => storage.close());

    it('records one event per change that happened, in order, with the pet after the change', async () => {
      const { pets, outbox } = storage;
      const rex = await pets.create(draft('Rex'));
      const tom = await pets.create(draft('Tom'));
      const renamed = O.toUndefined(await pets.update(rex.id, FIRST_PET_VERSION, draft('Rex II', 'pending')))!;
      // A change at a version that is gone does not happen, and records nothing.
      expect(O.isNone(await pets.update(rex.id, FIRST_PET_VERSION, draft('lost')))).to.equal(true);
      expect(await pets.remove(tom.id, FIRST_PET_VERSION + 1)).to.equal(false);
      expect(await pets.remove(tom.id, FIRST_PET_VERSION)).to.equal(true);

      const events = await waiting(outbox, 100);
      expect(summary(events)).to.deep.equal([
        { type: 'petstore.pet.created', petId: rex.id, data: rex },
        { type: 'petstore.pet.created', petId: tom.id, data: tom },
        { type: 'petstore.pet.updated', petId: rex.id, data: renamed.pet },
        { type: 'petstore.pet.deleted', petId: tom.id, data: { id: tom.id } },
      ]);
      // The envelope writes data as it is: the same bytes on every storage, keys in the interface's order.
      expect(events.map((event) => JSON.stringify(event.data))).to.deep.equal(
        [rex, tom, renamed.pet, { id: tom.id }].map((data) => JSON.stringify(data)),
      );
      const sequences = events.map((event) => event.sequence);
      expect(sequences).to.deep.equal([...sequences].sort((a, b) => a - b));
      expect(new Set(sequences).size).to.equal(4);
      expect(new Set(events.map((event) => event.id)).size).to.equal(4);
      for (const event of events) expect(event.id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    });

    it('records the creates of one batch each with its pet, concurrent creates included', async () => {
      const created = await Promise.all(Array.from({ length: 25 }, (_, i) => storage.pets.create(draft(`pet ${i}`))));
      const events = await waiting(storage.outbox, 100);
      expect(events.map((event) => event.data as Pet).sort((a, b) => a.id - b.id)).to.deep.equal([...created].sort((a, b) => a.id - b.id));
    });

    it('reads waiting events oldest first, at most a limit, until the transport has taken them', async () => {
      for (let i = 0; i < 5; i++) await storage.pets.create(draft(`pet ${i}`));
      const { outbox } = storage;
      const all = await waiting(outbox, 10);
      expect(all).to.have.length(5);
      const firstTwo = await outbox.read('nats', 2);
      expect(firstTwo.events).to.deep.equal(all.slice(0, 2));
      expect(await outbox.backlog('nats')).to.deep.include({ count: 5 });
      const oldest = (await outbox.backlog('nats')).oldest!;
      expect(oldest.getTime()).to.equal(firstTwo.events[0]!.time.getTime());

      await outbox.markTaken('nats', firstTwo.through, new Date());
      const rest = await waiting(outbox, 10, 'nats');
      // Exactly the events taken are gone: the others wait, in their order.
      expect(rest).to.deep.equal(all.slice(2));
      expect((await outbox.backlog('nats')).count).to.equal(3);
      // An event is the same, id and all, every time it is read.
      expect((await waiting(outbox, 1, 'nats'))[0]).to.deep.equal(rest[0]);
      // With nothing more to take, a read answers the position as it is.
      const end = await outbox.read('nats', 10);
      await outbox.markTaken('nats', end.through, new Date());
      expect(await outbox.read('nats', 10)).to.deep.equal({ events: [], through: end.through });
      expect(await outbox.backlog('nats')).to.deep.equal({ count: 0, oldest: undefined });
    });

    it("keeps each transport's position apart: one that takes nothing holds back no other", async () => {
      for (let i = 0; i < 4; i++) await storage.pets.create(draft(`pet ${i}`));
      const { outbox } = storage;
      const all = await waiting(outbox, 10, 'webhooks');
      const batch = await outbox.read('webhooks', 3);
      await outbox.markTaken('webhooks', batch.through, new Date());
      expect(await waiting(outbox, 10, 'webhooks')).to.deep.equal(all.slice(3));
      // nats has taken nothing: every event still waits for it, in the same order, ids and all.
      expect(await waiting(outbox, 10, 'nats')).to.deep.equal(all);
      expect((await outbox.backlog('nats')).count).to.equal(4);
      expect((await outbox.backlog('webhooks')).count).to.equal(1);
      // A mark behind a position moves nothing back (a relay that lost its lease mid-pass marks late).
      const first = await outbox.read('webhooks', 10);
      await outbox.markTaken('webhooks', first.through, new Date());
      await outbox.markTaken('webhooks', batch.through, new Date());
      expect(await waiting(outbox, 10, 'webhooks')).to.deep.equal([]);
      // A transport with no position yet starts at the start: it gets every event the outbox holds.
      expect(await waiting(outbox, 10, 'in-process')).to.deep.equal(all);
    });

    it('names the newest position: marked taken, a transport is past every event waiting, unread; the next change is read', async () => {
      for (let i = 0; i < 3; i++) await storage.pets.create(draft(`pet ${i}`));
      const { pets, outbox } = storage;
      const skip = async (transport: string) => outbox.markTaken(transport, await outbox.newestPosition(), new Date());
      await skip('in-process');
      expect(await waiting(outbox, 10, 'in-process')).to.deep.equal([]);
      expect((await outbox.backlog('in-process')).count).to.equal(0);
      // Another transport still has them all; and skipping again, with nothing new, moves nothing.
      expect(await waiting(outbox, 10, 'webhooks')).to.have.length(3);
      await skip('in-process');
      const next = await pets.create(draft('after the skip'));
      expect((await waiting(outbox, 10, 'in-process')).map((event) => event.petId)).to.deep.equal([next.id]);
      // Pruning counts a skip as taken: what every transport is past goes.
      await skip('webhooks');
      await skip('in-process');
      expect(await outbox.prune(new Date(Date.now() + 60_000), ['webhooks', 'in-process'])).to.equal(4);
    });

    it('gives an event committed late its place after what a transport has already taken', async () => {
      const { pets, outbox } = storage;
      await pets.create(draft('first'));
      const taken = await outbox.read('nats', 10);
      await outbox.markTaken('nats', taken.through, new Date());
      const second = await pets.create(draft('second'));
      const [late] = await waiting(outbox, 10, 'nats');
      expect(late?.petId).to.equal(second.id);
      // Read again by another transport, the events are in the same order.
      expect((await waiting(outbox, 10, 'webhooks')).map((event) => event.id)).to.deep.equal(
        [...taken.events, late].map((event) => event!.id),
      );
    });

    it('prunes only events that every transport named took before the retention limit', async () => {
      for (let i = 0; i < 3; i++) await storage.pets.create(draft(`pet ${i}`));
      const { outbox } = storage;
      const take = async (transport: string, count: number, at: string) => {
        const batch = await outbox.read(transport, count);
        await outbox.markTaken(transport, batch.through, new Date(at));
      };
      const [, , third] = await waiting(outbox, 3);
      await take('webhooks', 1, '2026-01-01T00:00:00Z');
      await take('webhooks', 1, '2026-01-03T00:00:00Z');
      await take('nats', 3, '2026-01-01T00:00:00Z');
      const transports = ['webhooks', 'nats'];
      expect(await outbox.prune(new Date('2026-01-02T00:00:00Z'), transports), 'the first, taken by both before the limit').to.equal(1);
      expect(await outbox.prune(new Date('2026-01-02T00:00:00Z'), transports)).to.equal(0);
      // A transport named that has taken nothing keeps everything.
      expect(await outbox.prune(new Date('2999-01-01T00:00:00Z'), [...transports, 'in-process'])).to.equal(0);
      // Events that wait for one transport are never pruned, however old.
      expect(await outbox.prune(new Date('2999-01-01T00:00:00Z'), transports)).to.equal(1);
      expect(await waiting(outbox, 10, 'webhooks')).to.deep.equal([third]);
      expect(await waiting(outbox, 10, 'nats')).to.deep.equal([]);
      // Pruning keeps each position: the next event waits for webhooks and nats alike.
      const next = await storage.pets.create(draft('next'));
      expect((await waiting(outbox, 10, 'nats')).map((event) => event.petId)).to.deep.equal([next.id]);
      expect((await waiting(outbox, 10, 'webhooks')).map((event) => event.petId)).to.deep.equal([third!.petId, next.id]);
    });

    it('grants the lease to one holder at a time, renews it for that holder, and passes it on once it ran out', async () => {
      const { outbox } = storage;
      const now = new Date('2026-06-01T12:00:00Z');
      const later = (ms: number) => new Date(now.getTime() + ms);
      expect(await outbox.lease('a', now, 10_000)).to.equal(true);
      expect(await outbox.lease('b', later(1000), 10_000)).to.equal(false);
      expect(await outbox.lease('a', later(5000), 10_000)).to.equal(true);
      // a's renewal runs to 15 s: b still waits at 12 s, and takes it at 16 s.
      expect(await outbox.lease('b', later(12_000), 10_000)).to.equal(false);
      expect(await outbox.lease('b', later(16_000), 10_000)).to.equal(true);
      expect(await outbox.lease('a', later(17_000), 10_000)).to.equal(false);
    });

    it('hands the lease on at once when its holder releases it, and only then', async () => {
      const { outbox } = storage;
      const now = new Date('2026-06-01T12:00:00Z');
      const later = (ms: number) => new Date(now.getTime() + ms);
      // Releasing a lease nobody holds, or another holds, changes nothing.
      await outbox.release('b');
      expect(await outbox.lease('a', now, 10_000)).to.equal(true);
      await outbox.release('b');
      expect(await outbox.lease('b', later(1000), 10_000)).to.equal(false);
      await outbox.release('a');
      expect(await outbox.lease('b', later(2000), 10_000)).to.equal(true);
      // The new holder renews it as before; the one that let go waits again.
      expect(await outbox.lease('b', later(3000), 10_000)).to.equal(true);
      expect(await outbox.lease('a', later(4000), 10_000)).to.equal(false);
    });

    it('wakes a watcher when a change records an event, after the change is readable', async () => {
      const { pets, outbox } = storage;
      let seen: readonly PetEvent[] | undefined;
      const woken = new Promise<void>((resolve) => {
        void outbox
          .watch(() => {
            void waiting(outbox, 10).then((events) => {
              seen ??= events;
              resolve();
            });
          })
          .then((stop) => woken.finally(stop));
      });
      // PostgreSQL's listener connects before it is answered: the create comes after it.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const pet = await pets.create(draft('Wakey'));
      await woken;
      expect(seen!.map((event) => event.petId)).to.include(pet.id);
    });
  });
}
