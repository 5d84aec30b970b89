// The JetStream transports on a real nats-server of the test's own, which it stops and starts:
// the stream's subjects are the event types, which no two streams of a server may share. One
// suite holds both: the transport in the caller's thread, and the same run in a worker thread,
// as a serving process uses it. A worker thread runs compiled code only (the test loader does
// not reach it), so that one is taken from dist/, which `npm test` builds first.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { jetstream, type JetStreamManager, jetstreamManager, StorageType } from '@nats-io/jetstream';
import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
import { expect } from 'chai';
import { CloudEvent } from 'cloudevents';
import { DUPLICATE_WINDOW_MS, EVENT_SUBJECTS, subjectMatches } from '../../../src/adapters/nats/event-stream.js';
import { openJetStreamTransport, type JetStreamTransportOptions } from '../../../src/adapters/nats/jetstream-transport.js';
import { PUBLISHER_NICENESS } from '../../../src/adapters/nats/jetstream-thread-messages.js';
import type * as ThreadTransport from '../../../src/adapters/nats/jetstream-thread-transport.js';
import {
  categoryCreated,
  categoryDeleted,
  petCreated,
  petDeleted,
  petUpdated,
  type CategoryId,
  type EventTransport,
  type PetId,
  type CategoryName,
} from '../../../src/domain/index.js';
import { describeWithNatsServer, type PrivateNats, startPrivateNats } from '../../support/nats.js';
import { eventOf, pet } from '../../support/pet-events.js';

const SOURCE = '/petstore-test';

/** Every outage the transport reports, in order. */
const outageLog = () => {
  const told: string[] = [];
  return { told, events: { lost: (fault: Error) => void told.push(`lost: ${fault.message}`), restored: () => void told.push('restored') } };
};

const within = async <T>(ms: number, work: Promise<T>): Promise<T> => {
  const started = Date.now();
  try {
    return await work;
  } finally {
    expect(Date.now() - started, `settled within ${ms} ms`).to.be.below(ms);
  }
};

type OpenedTransport = EventTransport & { close(): Promise<void> };
type OpenTransport = (options: JetStreamTransportOptions) => Promise<OpenedTransport>;

const COMPILED_THREAD_TRANSPORT = new URL('../../../dist/adapters/nats/jetstream-thread-transport.js', import.meta.url);
const openInThread: OpenTransport = async (options) => {
  const compiled = (await import(COMPILED_THREAD_TRANSPORT.href)) as typeof ThreadTransport;
  return compiled.JetStreamThreadTransport.open(options);
};

jetStreamTransportSuite('the NATS JetStream transport', openJetStreamTransport);
if (existsSync(COMPILED_THREAD_TRANSPORT)) jetStreamTransportSuite('the NATS JetStream transport in a worker thread', openInThread);
else describe.skip('the NATS JetStream transport in a worker thread (skipped: dist/ is not built; run npm run build)', () => undefined);

/** The niceness of each thread of this process, by thread id (Linux: field 19 of its stat); one that ends while read is left out. */
const threadNiceness = (): Map<string, number> =>
  new Map(
    readdirSync('/proc/self/task').flatMap((tid): [string, number][] => {
      const stat = readStat(`/proc/self/task/${tid}/stat`);
      return stat === undefined ? [] : [[tid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])]];
    }),
  );
const readStat = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

const onLinuxWithDist = process.platform === 'linux' && existsSync(COMPILED_THREAD_TRANSPORT);
(onLinuxWithDist ? describe : describe.skip)(
  `the JetStream publisher thread's priority${onLinuxWithDist ? '' : ' (skipped: Linux with dist/ built only)'}`,
  () => {
    it('is below the threads that serve, which keep theirs', async function () {
      this.timeout(10_000);
      const before = threadNiceness();
      // A NATS that does not answer: the thread opens all the same, and keeps trying.
      const opened = await openInThread({ url: 'nats://127.0.0.1:9', stream: 'PETSTORE_NICENESS', source: SOURCE });
      try {
        const after = threadNiceness();
        const started = [...after].filter(([tid]) => !before.has(tid)).map(([, niceness]) => niceness);
        expect(started).to.include(PUBLISHER_NICENESS);
        for (const [tid, niceness] of before) if (after.has(tid)) expect(after.get(tid), `thread ${tid}`).to.equal(niceness);
      } finally {
        await opened.close();
      }
    });
  },
);

function jetStreamTransportSuite(title: string, openTransport: OpenTransport): void {
  describeWithNatsServer(title, function () {
    let nats: PrivateNats;
    let admin: NatsConnection;
    let jsm: JetStreamManager;
    let stream: string;
    let transport: OpenedTransport | undefined;

    before(async () => {
      nats = await startPrivateNats();
      admin = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
      // Short requests: one sent while the admin connection reconnects after a restart is tried again.
      jsm = await jetstreamManager(admin, { timeout: 1000 });
    });
    after(async () => {
      await admin?.close();
      await nats?.remove();
    });
    beforeEach(() => {
      stream = `PETSTORE_TEST_${randomUUID().slice(0, 8)}`;
    });
    afterEach(async () => {
      await transport?.close();
      transport = undefined;
      for await (const name of jsm.streams.names()) await jsm.streams.delete(name);
    });

    const open = (events?: ReturnType<typeof outageLog>['events']) =>
      openTransport({ url: nats.url, stream, source: SOURCE, ...(events ? { events } : {}) }).then((opened) => (transport = opened));
    const messages = async () => {
      const { state } = await jsm.streams.info(stream);
      const stored = [];
      for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq++)
        stored.push((await jsm.streams.getMessage(stream, { seq }))!);
      return stored;
    };

    it('creates its stream when absent: the pet event subjects, on file, with a duplicate window of 10 minutes', async () => {
      const opened = await open();
      expect(opened.name).to.equal('nats');
      const { config } = await jsm.streams.info(stream);
      expect(config.subjects).to.deep.equal([...EVENT_SUBJECTS]);
      expect(config.storage).to.equal(StorageType.File);
      expect(config.duplicate_window).to.equal(nanos(DUPLICATE_WINDOW_MS));
    });

    it('leaves a stream that exists as it is', async () => {
      await jsm.streams.add({ name: stream, subjects: ['petstore.>'], storage: StorageType.Memory, max_age: nanos(3_600_000) });
      await open();
      const { config } = await jsm.streams.info(stream);
      expect([config.subjects, config.storage, config.max_age]).to.deep.equal([['petstore.>'], StorageType.Memory, nanos(3_600_000)]);
    });

    it('refuses to open when another stream holds the event subjects', async () => {
      await jsm.streams.add({ name: `${stream}_OTHER`, subjects: ['petstore.pet.*'] });
      const failure = await open().then(
        () => undefined,
        (fault: unknown) => fault,
      );
      expect(failure).to.be.instanceOf(Error);
    });

    it('refuses to open on a stream of its name that does not take every event subject, naming those left out', async () => {
      await jsm.streams.add({ name: stream, subjects: ['other.subject', 'petstore.pet.created'] });
      const failure = await open().then(
        () => undefined,
        (fault: unknown) => fault,
      );
      expect(failure).to.be.instanceOf(Error);
      expect((failure as Error).message)
        .to.contain(`the JetStream stream ${stream} does not take the subjects petstore.pet.updated, petstore.pet.deleted`)
        .and.contain('its subjects: other.subject, petstore.pet.created');
    });

    it("adds the categories' and the orders' subjects to a stream of an earlier release that takes every pet event", async () => {
      await jsm.streams.add({ name: stream, subjects: ['petstore.pet.*'] });
      await open();
      expect((await jsm.streams.info(stream)).config.subjects).to.deep.equal(['petstore.pet.*', 'petstore.category.*', 'petstore.order.*']);
    });

    it("adds the categories' subjects to a stream an earlier release made, keeping its settings, and publishes category events to it", async () => {
      // As release 1.2 created it: the pets' subjects only, with a limit an operator set since.
      await jsm.streams.add({ name: stream, subjects: ['petstore.pet.*'], storage: StorageType.File, max_age: nanos(3_600_000) });
      const opened = await open();
      const { config } = await jsm.streams.info(stream);
      expect([config.subjects, config.max_age]).to.deep.equal([
        ['petstore.pet.*', 'petstore.category.*', 'petstore.order.*'],
        nanos(3_600_000),
      ]);
      const events = [categoryCreated({ id: 4 as CategoryId, name: 'Cats' as CategoryName }), categoryDeleted(4 as CategoryId)].map(
        eventOf,
      );
      await opened.publish(events);
      expect((await messages()).map((m) => m.subject)).to.deep.equal(['petstore.category.created', 'petstore.category.deleted']);
    });

    it("refuses to open on a stream of an earlier release when another stream holds the categories' subjects, and leaves it as it was", async () => {
      await jsm.streams.add({ name: stream, subjects: ['petstore.pet.*'] });
      await jsm.streams.add({ name: `${stream}_OTHER`, subjects: ['petstore.category.*'] });
      const failure = await open().then(
        () => undefined,
        (fault: unknown) => fault,
      );
      expect((failure as Error).message).to.contain(
        `could not add the subjects petstore.category.*, petstore.order.* to the JetStream stream ${stream}`,
      );
      expect((await jsm.streams.info(stream)).config.subjects).to.deep.equal(['petstore.pet.*']);
    });

    it("publishes each pet's events in their order, on the subject of their type, as structured CloudEvents whose id is the message id", async () => {
      const events = [
        petCreated(pet(7, 'Rex')),
        petUpdated({ ...pet(7, 'Rex'), status: 'sold' }),
        petCreated(pet(8, 'Tom')),
        petDeleted(7 as PetId),
      ].map(eventOf);
      await (await open()).publish(events);
      const stored = await messages();
      // Pets' events are published in waves (one event of a pet per wave): each pet keeps its order.
      const ofPet = (petId: number) => stored.filter((m) => m.json<{ subject: string }>().subject === String(petId));
      expect(ofPet(7).map((m) => m.subject)).to.deep.equal(['petstore.pet.created', 'petstore.pet.updated', 'petstore.pet.deleted']);
      expect(ofPet(8).map((m) => m.subject)).to.deep.equal(['petstore.pet.created']);
      const byId = new Map(stored.map((m) => [m.header.get('Nats-Msg-Id'), m]));
      expect([...byId.keys()].sort()).to.deep.equal(events.map((e) => e.id).sort());
      for (const e of events) {
        const message = byId.get(e.id)!;
        expect(message.subject).to.equal(e.type);
        expect(message.json()).to.deep.equal({
          specversion: '1.0',
          id: e.id,
          source: SOURCE,
          type: e.type,
          subject: String(e.petId),
          time: e.time.toISOString(),
          datacontenttype: 'application/json',
          data: e.data,
        });
        // The envelope is made unchecked; the SDK's own schema check passes on what arrives.
        expect(new CloudEvent(message.json<Record<string, unknown>>()).validate()).to.equal(true);
      }
      expect(byId.get(events[3]!.id)!.json<{ data: unknown }>().data).to.deep.equal({ id: 7 });
    });

    it('keeps an event published again (the same id) once', async () => {
      const [first, second, third] = [petCreated(pet(1, 'A')), petCreated(pet(2, 'B')), petCreated(pet(3, 'C'))].map(eventOf);
      const opened = await open();
      await opened.publish([first!, second!]);
      await opened.publish([first!, second!, third!]);
      expect((await messages()).map((m) => m.header.get('Nats-Msg-Id'))).to.deep.equal([first!.id, second!.id, third!.id]);
    });

    const idsOf = (stored: Awaited<ReturnType<typeof messages>>) => stored.map((m) => m.header.get('Nats-Msg-Id'));
    /** What each stored message expected of the stream when it was published: "sequence id", or "" for nothing. */
    const expectationsOf = (stored: Awaited<ReturnType<typeof messages>>) =>
      stored.map((m) => `${m.header.get('Nats-Expected-Last-Sequence')} ${m.header.get('Nats-Expected-Last-Msg-Id')}`.trim());
    const creations = (...ids: number[]) => ids.map((id) => eventOf(petCreated(pet(id, `P${id}`))));

    it("publishes a wave after one it saw stored as one chain: each event expects the one before it as the stream's last message", async () => {
      const [a, b, c, d] = creations(1, 2, 3, 4);
      const opened = await open();
      await opened.publish([a!]);
      await opened.publish([b!, c!, d!]);
      const stored = await messages();
      expect(idsOf(stored)).to.deep.equal([a!.id, b!.id, c!.id, d!.id]);
      expect(expectationsOf(stored)).to.deep.equal(['', `1 ${a!.id}`, `2 ${b!.id}`, `3 ${c!.id}`]);
    });

    it('publishes a chain that another publisher broke again event by event, and the next waves too', async () => {
      const [a, b, c, d, e] = creations(1, 2, 3, 4, 5);
      const opened = await open();
      await opened.publish([a!]);
      await jetstream(admin).publish('petstore.pet.created', '{}', { msgID: 'another publisher' });
      await opened.publish([b!, c!]);
      await opened.publish([d!, e!]);
      const stored = await messages();
      expect(idsOf(stored)).to.deep.equal([a!.id, 'another publisher', b!.id, c!.id, d!.id, e!.id]);
      expect(expectationsOf(stored).slice(2)).to.deep.equal(['', '', '', '']);
    });

    it('publishes a chain again event by event when the stream held some of its events before and refused one between them', async () => {
      // The stream holds a and c, c last; b was never stored. A chain a, b, c, d after c could
      // end in a stored d while b is refused, were the chain judged by ids alone.
      const [a, b, c, d] = creations(1, 2, 3, 4);
      const opened = await open();
      await opened.publish([a!, c!]);
      await opened.publish([a!, b!, c!, d!]);
      expect(idsOf(await messages())).to.deep.equal([a!.id, c!.id, b!.id, d!.id]);
    });

    it('rejects within seconds while NATS is away, reports the outage once, and publishes once it is back, each event once', async function () {
      this.timeout(30_000);
      const log = outageLog();
      const opened = await open(log.events);
      const [before, during, after] = [petCreated(pet(1, 'A')), petCreated(pet(2, 'B')), petCreated(pet(3, 'C'))].map(eventOf);
      await opened.publish([before!]);

      await nats.stop();
      // At once, or once the publication's timeout has run when the loss is not yet noticed.
      for (let attempt = 0; attempt < 3; attempt++) {
        const failure = await within(
          4000,
          opened.publish([before!, during!]).then(
            () => undefined,
            (fault: unknown) => fault,
          ),
        );
        expect(failure, `attempt ${attempt}`).to.be.instanceOf(Error);
      }
      expect(log.told).to.deep.equal(['lost: the connection to NATS was lost']);

      await nats.start();
      const deadline = Date.now() + 15_000;
      for (;;) {
        try {
          await opened.publish([before!, during!, after!]);
          break;
        } catch (fault) {
          if (Date.now() > deadline) throw fault;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
      expect(log.told).to.deep.equal(['lost: the connection to NATS was lost', 'restored']);
      let stored: Awaited<ReturnType<typeof messages>> | undefined;
      for (let attempt = 0; stored === undefined; attempt++)
        stored = await messages().catch((fault: unknown) => (attempt < 10 ? undefined : Promise.reject(fault)));
      expect(stored.map((m) => m.header.get('Nats-Msg-Id'))).to.deep.equal([before!.id, during!.id, after!.id]);
    });

    it('opens while NATS cannot be reached, says so once, and creates its stream on the first publication once it can', async function () {
      this.timeout(30_000);
      await nats.stop();
      const log = outageLog();
      const opened = await within(4000, open(log.events));
      const event = eventOf(petCreated(pet(5, 'E')));
      const failure = await within(
        1000,
        opened.publish([event]).then(
          () => undefined,
          (fault: unknown) => fault,
        ),
      );
      expect(failure).to.be.instanceOf(Error).with.property('message', 'NATS is not connected');
      expect(log.told).to.have.length(1);

      await nats.start();
      const deadline = Date.now() + 15_000;
      while (log.told.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(log.told.slice(1)).to.deep.equal(['restored']);
      await opened.publish([event]);
      expect((await messages()).map((m) => m.header.get('Nats-Msg-Id'))).to.deep.equal([event.id]);
    });
  });
}

describe('NATS subject filters', () => {
  it('take a subject as NATS does: * one token, > one or more at the end', () => {
    const takes = (filter: string, subject: string) => subjectMatches(filter, subject);
    for (const filter of ['petstore.pet.*', 'petstore.>', '>', 'petstore.*.created', 'petstore.pet.created', '*.pet.*'])
      expect(takes(filter, 'petstore.pet.created'), filter).to.equal(true);
    for (const filter of ['petstore.*', 'petstore.pet', 'petstore.pet.*.x', 'petstore.pet.created.>', 'other.>', 'petstore.pet.deleted'])
      expect(takes(filter, 'petstore.pet.created'), filter).to.equal(false);
  });
});
