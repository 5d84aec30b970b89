// The relay's rounds on the memory outbox, with a transport that records what it is handed:
// a round goes on while its passes find full batches, a short batch ends it (what comes after
// wakes the next round, which gathers a burst into one pass), and a refusal is tried again.
import { expect } from 'chai';
import { MemoryEventOutbox } from '../../../src/adapters/memory/memory-event-outbox.js';
import { MemoryPetRepository } from '../../../src/adapters/memory/memory-pet-repository.js';
import { type EventRelayOptions, RELAY_TIMINGS, type RunningEventRelay, startEventRelay } from '../../../src/adapters/relay/event-relay.js';
import { InProcessSubscribers } from '../../../src/adapters/relay/in-process-subscribers.js';
import { TimeLimitExceeded } from '../../../src/adapters/shared/time-limit.js';
import {
  type CategoryId,
  type Clock,
  type EventOutbox,
  type EventTransport,
  type PetEvent,
  type PetName,
  type RelayPass,
  relayEvents,
} from '../../../src/domain/index.js';
import { eventually } from '../../support/eventually.js';

const clock = { now: () => new Date() };
/** The relay's passes for one transport. */
const lane = (outbox: EventOutbox, transport: EventTransport, clock: Clock, batchSize: number) => ({
  transport: transport.name,
  relay: relayEvents(outbox, transport, clock, batchSize),
});
const draft = (name: string) => ({ name: name as PetName, categoryId: 1 as CategoryId, status: 'available' as const });

describe('the event relay', () => {
  let outbox: MemoryEventOutbox;
  let pets: MemoryPetRepository;
  let relay: RunningEventRelay | undefined;
  const passes: RelayPass[] = [];
  const handed: PetEvent[][] = [];
  let refuse = 0;
  const transport: EventTransport = {
    name: 'recording',
    publish: (events) => {
      if (refuse > 0) {
        refuse -= 1;
        return Promise.reject(new Error('not now'));
      }
      handed.push([...events]);
      return Promise.resolve();
    },
  };
  /** The relay of one lane (unless `relays` are given), from `from` (the test's outbox) to `to` (the recording transport), polling every 200 ms unless told. */
  const startRelay = async ({
    from = outbox,
    to = transport,
    batchSize = 10,
    relays = [lane(from, to, clock, batchSize)],
    ...options
  }: { from?: EventOutbox; to?: EventTransport; batchSize?: number } & Partial<Omit<EventRelayOptions, 'outbox'>> = {}) => {
    relay = await startEventRelay({
      outbox: from,
      relays,
      clock,
      holder: 'test',
      retentionMs: 60_000,
      report: { pass: (pass) => void passes.push(pass), fault: (fault) => expect.fail(String(fault)) },
      pollMs: 200,
      ...options,
    });
    return relay;
  };
  const start = (
    batchSize: number,
    wakeDelayMs = 50,
    prunes: readonly ((before: Date) => Promise<unknown>)[] = [],
    duties: readonly ((now: Date) => Promise<void>)[] = [],
  ) => startRelay({ batchSize, wakeDelayMs, prunes, duties });

  /** `outbox`, counting its reads and its newest-position lookups. */
  const counting = (outbox: EventOutbox) => {
    const calls = { reads: 0, newest: 0 };
    const counted: EventOutbox = Object.assign(Object.create(outbox) as EventOutbox, {
      read: (name: string, limit: number) => ((calls.reads += 1), outbox.read(name, limit)),
      newestPosition: () => ((calls.newest += 1), outbox.newestPosition()),
    });
    return { counted, calls };
  };

  beforeEach(() => {
    outbox = new MemoryEventOutbox();
    pets = new MemoryPetRepository(undefined, outbox);
    passes.length = 0;
    handed.length = 0;
    refuse = 0;
  });
  afterEach(async () => {
    await relay?.stop();
    relay = undefined;
  });

  it('relays a backlog larger than its batch in one round of full passes, ended by the first short one', async () => {
    for (let i = 0; i < 5; i++) await pets.create(draft(`pet ${i}`));
    await start(2);
    await eventually(() => handed.flat().length === 5, 'all five events handed on', 300);
    expect(handed.map((batch) => batch.length)).to.deep.equal([2, 2, 1]);
    expect(passes.map((pass) => pass.outcome === 'relayed' && pass.full)).to.deep.equal([true, true, false]);
    expect(handed.flat().map((event) => event.sequence)).to.deep.equal([1, 2, 3, 4, 5]);
    expect((await outbox.backlog('recording')).count).to.equal(0);
  });

  it('gathers the changes made while it waits to be woken into one pass', async () => {
    await start(100, 100);
    await eventually(() => passes.length === 1, 'the first, empty pass', 300);
    // Recorded in one burst: the first wakes the relay, which answers after the wake-up delay.
    await Promise.all(Array.from({ length: 10 }, (_, i) => pets.create(draft(`pet ${i}`))));
    await eventually(() => handed.flat().length === 10, 'the burst handed on', 300);
    expect(handed).to.have.length(1);
  });

  it('hands the same events on again after a refusal, from the first, until they are taken', async () => {
    refuse = 2;
    for (let i = 0; i < 3; i++) await pets.create(draft(`pet ${i}`));
    await start(10);
    await eventually(() => handed.length === 1, 'the events taken after two refusals', 300);
    expect(passes.filter((pass) => pass.outcome === 'refused')).to.have.length(2);
    expect(handed[0]!.map((event) => event.sequence)).to.deep.equal([1, 2, 3]);
  });

  it('moves a transport that wants none past its events unread, and hands it those recorded once it wants them', async () => {
    let wantsNone = true;
    const { counted, calls } = counting(outbox);
    const choosy: EventTransport = { ...transport, wantsNone: () => Promise.resolve(wantsNone) };
    for (let i = 0; i < 3; i++) await pets.create(draft(`unwanted ${i}`));
    await startRelay({ from: counted, to: choosy });
    await eventually(async () => (await outbox.backlog('recording')).count === 0, 'the unwanted events skipped', 300);
    expect(calls.reads, 'none read').to.equal(0);
    wantsNone = false;
    const newestBefore = calls.newest;
    const wanted = await pets.create(draft('wanted'));
    await eventually(() => handed.length === 1, 'the event recorded once it wants them', 300);
    expect(handed[0]!.map((event) => event.petId)).to.deep.equal([wanted.id]);
    expect(calls.newest, 'no newest position asked for a transport that wants events').to.equal(newestBefore);
  });

  it('passes over nothing recorded after a transport that wanted none came to want events, while its pass asked', async () => {
    let wantsNone = true;
    let recordedMeanwhile: number | undefined;
    // While the pass takes the newest position, a subscriber comes, then a change is recorded.
    const racing: EventOutbox = Object.assign(Object.create(outbox) as EventOutbox, {
      newestPosition: async () => {
        if (recordedMeanwhile === undefined) {
          wantsNone = false;
          recordedMeanwhile = (await pets.create(draft('heard'))).id;
        }
        return outbox.newestPosition();
      },
    });
    await startRelay({ from: racing, to: { ...transport, wantsNone: () => Promise.resolve(wantsNone) } });
    await eventually(() => handed.length === 1, 'the change recorded once the transport wanted events', 300);
    expect(recordedMeanwhile, 'the race happened: the change was recorded while the pass asked').to.be.a('number');
    expect(handed[0]!.map((event) => event.petId)).to.deep.equal([recordedMeanwhile]);
  });

  it('passes a transport that wants none at the poll, not at each wake-up that another transport answers', async () => {
    const { counted, calls } = counting(outbox);
    const idle: EventTransport = {
      name: 'idle',
      publish: () => expect.fail('handed events it wants none of'),
      wantsNone: () => Promise.resolve(true),
    };
    await startRelay({
      from: counted,
      relays: [lane(counted, transport, clock, 10), lane(counted, idle, clock, 10)],
      pollMs: 10_000,
      wakeDelayMs: 10,
    });
    await eventually(() => calls.newest === 1, 'the first pass of the idle transport', 300);
    for (let i = 1; i <= 3; i++) {
      await pets.create(draft(`pet ${i}`));
      await eventually(() => handed.length === i, `change ${i} handed on by a round of its own`, 300);
    }
    expect(calls.newest, 'passes of the idle transport').to.equal(1);
  });

  it('hands a subscriber in the process the events recorded once it came, at once, not at the next poll', async () => {
    const heard: number[] = [];
    const subscribers = new InProcessSubscribers(1_000, () => relay?.retry('in-process'));
    await startRelay({ to: subscribers, pollMs: 10_000 });
    await eventually(() => passes.length === 1, 'the first pass, with no subscriber', 300);
    subscribers.subscribe((event) => void heard.push(event.petId));
    const pet = await pets.create(draft('Heard'));
    await eventually(() => heard.length === 1, 'the change heard before the next poll', 300);
    expect(heard).to.deep.equal([pet.id]);
  });

  it('tries a refusing transport again at once when it says it is back, not at the end of its back-off', async () => {
    refuse = 1;
    await pets.create(draft('Waiting'));
    // A poll of 10 s: the refusal's back-off is 20 s, longer than the test may take.
    const started = await startRelay({ pollMs: 10_000 });
    await eventually(() => passes.length === 1, 'the refused pass', 300);
    started.retry('recording');
    await eventually(() => handed.length === 1, 'the event taken once the transport is back', 300);
    expect(passes.map((pass) => pass.outcome)).to.deep.equal(['refused', 'relayed']);
  });

  it('tries again after the pass under way when the transport says it is back while that pass meets the outage', async () => {
    await pets.create(draft('Waiting'));
    let answer: ((fault: Error) => void) | undefined;
    const held: EventTransport = {
      name: 'held',
      // The first publication waits for the test to refuse it; the others are taken.
      publish: (events) =>
        handed.length === 0 && passes.length === 0
          ? new Promise<void>((_, reject) => (answer = reject))
          : Promise.resolve(void handed.push([...events])),
    };
    const started = await startRelay({ to: held, pollMs: 10_000 });
    await eventually(() => answer !== undefined, 'the first publication under way', 300);
    started.retry('held');
    answer!(new Error('the broker was away when this pass began'));
    await eventually(() => handed.length === 1, 'the event taken by the pass after the refused one', 300);
    expect(passes.map((pass) => pass.outcome)).to.deep.equal(['refused', 'relayed']);
  });

  it('runs its duties at every poll while a transport refuses: the back-off holds the passes alone', async () => {
    refuse = 1_000;
    await pets.create(draft('Waiting'));
    let duties = 0;
    await start(10, 50, [], [() => Promise.resolve(void (duties += 1))]);
    await eventually(() => duties >= 6, 'six polls of duties', 500);
    const refused = passes.filter((pass) => pass.outcome === 'refused').length;
    expect(refused, 'passes, each after a longer back-off').to.be.within(1, duties - 2);
  });

  it('keeps to the poll while it backs off and no longer leads: rounds come a poll apart, never back to back', async () => {
    refuse = 1_000_000;
    await pets.create(draft('Waiting'));
    let grants = 1;
    // The lease is granted once, then held elsewhere.
    const leasedOnce: EventOutbox = {
      read: (name, limit) => outbox.read(name, limit),
      markTaken: (name, through, at) => outbox.markTaken(name, through, at),
      newestPosition: () => outbox.newestPosition(),
      prune: (before, names) => outbox.prune(before, names),
      backlog: (name) => outbox.backlog(name),
      watch: (wake) => outbox.watch(wake),
      lease: () => Promise.resolve((grants -= 1) >= 0),
      release: (holder) => outbox.release(holder),
    };
    let rounds = 0;
    const counting = { now: () => ((rounds += 1), new Date()) };
    relay = await startEventRelay({
      outbox: leasedOnce,
      relays: [lane(leasedOnce, transport, clock, 10)],
      clock: counting,
      holder: 'test',
      retentionMs: 60_000,
      report: { pass: (pass) => void passes.push(pass), fault: (fault) => expect.fail(String(fault)) },
      pollMs: 200,
      leaseMs: 300,
    });
    await eventually(() => passes.length === 1 && grants < 0, 'a refused pass, then the lease elsewhere', 300);
    const before = rounds;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(rounds - before, 'rounds in a second at a poll of 200 ms').to.be.within(1, 10);
  });

  it('hands on, as it stops, what was recorded just before', async () => {
    await start(10);
    await eventually(() => passes.length === 1, 'the first, empty pass', 300);
    await pets.create(draft('Late'));
    await relay!.stop();
    relay = undefined;
    expect(handed.flat().map((event) => event.sequence)).to.deep.equal([1]);
    expect((await outbox.backlog('recording')).count).to.equal(0);
  });

  it('leaves in the outbox what a transport refuses as it stops, without trying again', async () => {
    await start(10);
    await eventually(() => passes.length === 1, 'the first, empty pass', 300);
    refuse = 2;
    await pets.create(draft('Refused'));
    await relay!.stop();
    relay = undefined;
    expect(passes.slice(1).map((pass) => pass.outcome)).to.deep.equal(['refused']);
    expect((await outbox.backlog('recording')).count).to.equal(1);
  });

  it('counts a subscriber in the process that has not settled in time as a refusal, and hands the events on again', async () => {
    const subscribers = new InProcessSubscribers(50);
    const heard: number[] = [];
    subscribers.subscribe((event) => (heard.push(event.sequence) === 1 ? new Promise<void>(() => undefined) : undefined));
    await pets.create(draft('Slow'));
    await startRelay({ to: subscribers, pollMs: 100 });
    await eventually(() => heard.length === 2, 'the event offered again', 300);
    expect(heard).to.deep.equal([1, 1]);
    const [refused] = passes;
    expect(refused).to.deep.include({ outcome: 'refused', transport: 'in-process' });
    expect(refused!.outcome === 'refused' && refused!.fault).to.be.instanceOf(TimeLimitExceeded);
  });

  it('stops without waiting longer than its stop wait for a transport that never answers', async function () {
    this.timeout(5000);
    const faults: unknown[] = [];
    let handedOn = 0;
    const silent: EventTransport = { name: 'silent', publish: () => new Promise(() => void (handedOn += 1)) };
    await pets.create(draft('Unanswered'));
    const stopping = await startEventRelay({
      outbox,
      relays: [lane(outbox, silent, clock, 10)],
      clock,
      holder: 'test',
      retentionMs: 60_000,
      report: { pass: (pass) => void passes.push(pass), fault: (fault) => void faults.push(fault) },
      stopWaitMs: 100,
    });
    await eventually(() => handedOn === 1, 'the event handed to the transport', 300);
    await stopping.stop();
    expect(faults).to.have.length(1);
    expect(faults[0]).to.be.instanceOf(TimeLimitExceeded);
    // The lease is released all the same, and the event waits for the next relay.
    expect(await outbox.lease('another', new Date(), 10_000)).to.equal(true);
    expect((await outbox.backlog('silent')).count).to.equal(1);
  });

  it('releases its lease when it stops, so that another relay takes it at once', async () => {
    await start(10);
    await eventually(() => passes.length === 1, 'the first pass, under the lease', 300);
    expect(await outbox.lease('another', new Date(), 10_000)).to.equal(false);
    await relay!.stop();
    relay = undefined;
    expect(await outbox.lease('another', new Date(), 10_000)).to.equal(true);
  });

  it('times its lease by the wall clock, whatever clock it is given', async () => {
    const in2030 = { now: () => new Date('2030-01-01T00:00:00Z') };
    relay = await startEventRelay({
      outbox,
      relays: [lane(outbox, transport, in2030, 10)],
      clock: in2030,
      holder: 'test',
      retentionMs: 60_000,
      report: { pass: (pass) => void passes.push(pass), fault: (fault) => expect.fail(String(fault)) },
    });
    await eventually(() => passes.length === 1, 'the first pass, under the lease', 300);
    // Another process, on the real clock, waits for the lease as long as it lasts, not until 2030.
    expect(await outbox.lease('another', new Date(), 10_000)).to.equal(false);
    expect(await outbox.lease('another', new Date(Date.now() + RELAY_TIMINGS.leaseMs + 1000), 10_000)).to.equal(true);
  });

  it('prunes, with the outbox, what else it is given, older than the retention', async () => {
    const asked: Date[] = [];
    const started = Date.now();
    await start(10, 50, [(before) => Promise.resolve(asked.push(before))]);
    await eventually(() => asked.length === 1, 'the first round pruned', 300);
    expect(asked[0]!.getTime()).to.be.within(started - 60_000, Date.now() - 60_000);
  });
});
