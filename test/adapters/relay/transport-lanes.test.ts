// Each transport at its own pace: the relay hands every transport the events after its own
// position, so one that refuses or hangs holds back no other, and a relay that takes over
// carries on from where each transport stood. On the memory outbox, with transport doubles.
import { expect } from 'chai';
import { MemoryEventOutbox } from '../../../src/adapters/memory/memory-event-outbox.js';
import { MemoryPetRepository } from '../../../src/adapters/memory/memory-pet-repository.js';
import { type RunningEventRelay, startEventRelay } from '../../../src/adapters/relay/event-relay.js';
import {
  type CategoryId,
  type EventTransport,
  type PetEvent,
  type PetName,
  type RelayPass,
  relayEvents,
} from '../../../src/domain/index.js';
import { eventually } from '../../support/eventually.js';

const clock = { now: () => new Date() };
const draft = (name: string) => ({ name: name as PetName, categoryId: 1 as CategoryId, status: 'available' as const });

/** A transport double: it takes what it is handed while `accepting`, and refuses otherwise; `hold` makes it hang until released. */
class DoubleTransport implements EventTransport {
  readonly taken: PetEvent[] = [];
  readonly offered: PetEvent[][] = [];
  accepting = true;
  private held: { release: () => void; promise: Promise<void> } | undefined;

  constructor(readonly name: string) {}

  hold(): void {
    let release = () => {};
    const promise = new Promise<void>((resolve) => (release = resolve));
    this.held = { release, promise };
  }

  release(): void {
    const held = this.held;
    this.held = undefined;
    held?.release();
  }

  async publish(events: readonly PetEvent[]): Promise<void> {
    this.offered.push([...events]);
    if (this.held !== undefined) await this.held.promise;
    if (!this.accepting) throw new Error(`${this.name} is away`);
    this.taken.push(...events);
  }
}

describe('the relay, each transport at its own pace', () => {
  let outbox: MemoryEventOutbox;
  let pets: MemoryPetRepository;
  const relays: RunningEventRelay[] = [];
  const passes: RelayPass[] = [];
  const start = async (holder: string, transports: readonly EventTransport[]) => {
    const relay = await startEventRelay({
      outbox,
      relays: transports.map((transport) => ({ transport: transport.name, relay: relayEvents(outbox, transport, clock, 3) })),
      clock,
      holder,
      retentionMs: 60_000,
      report: { pass: (pass) => void passes.push(pass), fault: (fault) => expect.fail(String(fault)) },
      pollMs: 50,
      maxBackoffMs: 100,
      wakeDelayMs: 5,
    });
    relays.push(relay);
    return relay;
  };
  const createPets = async (count: number, from = 0) => {
    for (let i = from; i < from + count; i++) await pets.create(draft(`pet ${i}`));
  };
  const ids = (events: readonly PetEvent[]) => events.map((event) => event.id);

  beforeEach(() => {
    outbox = new MemoryEventOutbox();
    pets = new MemoryPetRepository(undefined, outbox);
    passes.length = 0;
  });
  afterEach(async () => {
    for (const relay of relays.splice(0)) await relay.stop();
  });

  it('delivers to one transport while another refuses, and to that one, in order, once it takes them', async () => {
    const webhooks = new DoubleTransport('webhooks');
    const nats = new DoubleTransport('nats');
    nats.accepting = false;
    await start('one', [webhooks, nats]);
    await createPets(5);
    await eventually(() => webhooks.taken.length === 5, 'every event taken by webhooks');
    // More while NATS still refuses: webhooks takes them as they come, NATS none.
    await createPets(5, 5);
    await eventually(() => webhooks.taken.length === 10, 'the later events taken by webhooks too');
    const refused = passes.filter((pass) => pass.outcome === 'refused');
    expect(refused.length, 'NATS refused while webhooks took every event').to.be.greaterThan(0);
    expect(refused.every((pass) => pass.transport === 'nats')).to.equal(true);
    expect(nats.taken).to.deep.equal([]);
    expect((await outbox.backlog('nats')).count).to.equal(10);
    expect((await outbox.backlog('webhooks')).count).to.equal(0);

    nats.accepting = true;
    await eventually(() => nats.taken.length === 10, 'every event published once NATS is back');
    // Once each, in the outbox order, with the ids webhooks got.
    expect(ids(nats.taken)).to.deep.equal(ids(webhooks.taken));
    expect(nats.taken.map((event) => event.sequence)).to.deep.equal(Array.from({ length: 10 }, (_, i) => i + 1));
  });

  it('delivers to one transport while another hangs on its first batch', async () => {
    const webhooks = new DoubleTransport('webhooks');
    const slow = new DoubleTransport('in-process');
    slow.hold();
    await start('one', [webhooks, slow]);
    await createPets(2);
    await eventually(() => slow.offered.length === 1 && webhooks.taken.length === 2, 'the first events offered to both');
    await createPets(7, 2);
    await eventually(() => webhooks.taken.length === 9, 'the later events taken by webhooks');
    // The race happened: all that while, the slow transport was still on its first batch.
    expect(slow.offered).to.have.length(1);
    expect(slow.taken).to.deep.equal([]);

    slow.release();
    await eventually(() => slow.taken.length === 9, 'the slow transport taking the rest');
    expect(ids(slow.taken)).to.deep.equal(ids(webhooks.taken));
  });

  it("carries on, in a relay that takes over, from each transport's position", async () => {
    const webhooks = new DoubleTransport('webhooks');
    const nats = new DoubleTransport('nats');
    nats.accepting = false;
    const first = await start('first', [webhooks, nats]);
    await createPets(4);
    await eventually(() => webhooks.taken.length === 4, 'webhooks taking the first events');
    await first.stop();
    relays.splice(relays.indexOf(first), 1);

    // The next holder hands webhooks only what came after its position, and NATS everything.
    await createPets(2, 4);
    const webhooksNext = new DoubleTransport('webhooks');
    const natsNext = new DoubleTransport('nats');
    await start('second', [webhooksNext, natsNext]);
    await eventually(() => webhooksNext.taken.length === 2 && natsNext.taken.length === 6, 'both transports caught up');
    expect(webhooksNext.taken.map((event) => event.sequence)).to.deep.equal([5, 6]);
    expect(natsNext.taken.map((event) => event.sequence)).to.deep.equal([1, 2, 3, 4, 5, 6]);
    expect(nats.taken).to.deep.equal([]);
  });

  it('prunes only what every transport has taken', async () => {
    const webhooks = new DoubleTransport('webhooks');
    const nats = new DoubleTransport('nats');
    nats.accepting = false;
    await start('one', [webhooks, nats]);
    await createPets(3);
    await eventually(() => webhooks.taken.length === 3, 'webhooks taking the events');
    // Whatever the retention, what NATS has not taken stays.
    expect(await outbox.prune(new Date(Date.now() + 3_600_000), ['webhooks', 'nats'])).to.equal(0);
    expect((await outbox.read('nats', 10)).events).to.have.length(3);
  });
});
