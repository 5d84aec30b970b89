// The webhook dispatcher against a real HTTP receiver on 127.0.0.1 that checks every request
// with the standardwebhooks package, as a consumer would. Time is the test's clock, which the
// dispatcher reads, set before each dispatch, so no test waits for a backoff; it starts at the
// real time, as the receiver's check refuses timestamps more than 5 minutes away.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { Webhook } from 'standardwebhooks';
import { MemoryWebhookStore } from '../../../src/adapters/memory/memory-webhook-store.js';
import { openSqliteDatabase, SQLITE_IN_MEMORY } from '../../../src/adapters/sqlite/open-sqlite-database.js';
import { SqliteWebhookStore } from '../../../src/adapters/sqlite/sqlite-webhook-store.js';
import {
  type WebhookOutcomes,
  WebhookDispatcher,
  type WebhookDispatcherOptions,
} from '../../../src/adapters/webhooks/webhook-dispatcher.js';
import { generateWebhookSecret } from '../../../src/adapters/webhooks/webhook-secret.js';
import { webhooksTransport } from '../../../src/adapters/webhooks/webhooks-transport.js';
import { createPetStore, type PetStore } from '../../../src/composition/pet-store.js';
import { TOKENS } from '../../../src/composition/tokens.js';
import {
  NewPet,
  type PetEvent,
  type PetId,
  petCreated,
  WEBHOOK_MAX_ATTEMPTS,
  type WebhookAdmin,
  type WebhookEndpoint,
  type WebhookStore,
  type WebhookUrl,
} from '../../../src/domain/index.js';
import { eventually } from '../../support/eventually.js';

interface Received {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  /** What the standardwebhooks package made of it: the parsed payload, or its refusal. */
  readonly verified: unknown;
}

/** What the receiver answers to its n-th request (from 0): a status, or no answer at all. */
type Script = (n: number, path: string) => number | 'hang';

interface Receiver {
  readonly url: string;
  readonly received: Received[];
  /** How many requests it has not answered whose connection is still open. */
  readonly hanging: () => number;
  close(): Promise<void>;
}

async function startReceiver(secretFor: (path: string) => string, script: Script): Promise<Receiver> {
  const received: Received[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified: unknown;
      try {
        verified = new Webhook(secretFor(req.url ?? '')).verify(body, req.headers as Record<string, string>);
      } catch (err) {
        verified = err;
      }
      const answer = script(received.length, req.url ?? '');
      received.push({ path: req.url ?? '', headers: req.headers, body, verified });
      if (answer === 'hang') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
      } else res.writeHead(answer, answer === 302 ? { location: '/elsewhere' } : {}).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    hanging: () => hanging.size,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

interface Told {
  readonly outcome: keyof WebhookOutcomes;
  readonly args: readonly unknown[];
}

const recordingOutcomes = (told: Told[]): WebhookOutcomes => ({
  delivered: (...args) => void told.push({ outcome: 'delivered', args }),
  retrying: (...args) => void told.push({ outcome: 'retrying', args }),
  failed: (...args) => void told.push({ outcome: 'failed', args }),
  unrecorded: (...args) => void told.push({ outcome: 'unrecorded', args }),
  superseded: (...args) => void told.push({ outcome: 'superseded', args }),
});

const event = (id: string): PetEvent => ({
  ...petCreated({ id: 7 as PetId, name: 'Zürich 🐕', categoryId: 1, status: 'available' } as never),
  id,
  sequence: 1,
  time: new Date('2026-11-26T10:00:00.000Z'),
});

describe('the webhook dispatcher, against a real receiver', () => {
  let store: WebhookStore;
  let closeStore: () => void;
  let receiver: Receiver | undefined;
  let told: Told[];
  let secrets: Map<string, string>; // by the path of the endpoint's URL
  const T0 = Math.floor(Date.now() / 1000) * 1000;
  const at = (ms: number) => new Date(T0 + ms);
  let now: Date;
  const clock = { now: () => now };

  beforeEach(() => {
    const db = openSqliteDatabase(SQLITE_IN_MEMORY);
    store = new SqliteWebhookStore(db);
    closeStore = () => db.close();
    told = [];
    secrets = new Map();
    now = at(0);
  });
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
    closeStore();
  });

  const addEndpoint = async (url: string): Promise<WebhookEndpoint> => {
    const secret = generateWebhookSecret();
    const endpoint = await store.add({ url: url as WebhookUrl, eventTypes: [], secret, createdAt: at(0) });
    secrets.set(new URL(url).pathname + new URL(url).search, secret);
    return endpoint;
  };
  const receive = async (script: Script) => {
    receiver = await startReceiver((path) => secrets.get(path) ?? 'whsec_AAAA', script);
    return receiver;
  };
  const dispatcher = (timeoutMs = 2_000, options: WebhookDispatcherOptions = {}) =>
    new WebhookDispatcher(store, clock, { outcomes: recordingOutcomes(told), random: () => 0.5, timeoutMs, ...options });
  /** The deliveries due at `time`, claimed, sent and recorded as the server does; what became of them, as told. */
  const dispatchAt = async (dispatch: WebhookDispatcher, time: Date) => {
    now = time;
    const toldBefore = told.length;
    const attempted = await dispatch.startDue();
    await dispatch.settled();
    const outcomes = told.slice(toldBefore).map((t) => t.outcome);
    const count = (outcome: string) => outcomes.filter((o) => o === outcome).length;
    return { attempted, delivered: count('delivered'), retrying: count('retrying'), failed: count('failed') };
  };
  const publish = (...ids: string[]) => webhooksTransport(store, { now: () => at(0) }, '/petstore').publish(ids.map(event));

  it('retries a 503 with the same webhook-id and a fresh valid signature each time, until a 2xx delivers it', async () => {
    const { url, received } = await receive((n) => (n < 2 ? 503 : 204));
    const endpoint = await addEndpoint(`${url}/hook?team=pets`);
    await publish('3f1c2a8e-0000-4000-8000-000000000001');
    const dispatch = dispatcher();

    expect(await dispatchAt(dispatch, at(0))).to.deep.equal({ attempted: 1, delivered: 0, retrying: 1, failed: 0 });
    expect(await dispatchAt(dispatch, at(4_999)), 'not before the first retry is due').to.deep.include({ attempted: 0 });
    expect(await dispatch.nextDueAt()).to.deep.equal(at(5_000));
    expect(await dispatchAt(dispatch, at(5_000))).to.deep.include({ attempted: 1, retrying: 1 });
    expect(await dispatch.nextDueAt()).to.deep.equal(at(35_000));
    expect(await dispatchAt(dispatch, at(35_000))).to.deep.equal({ attempted: 1, delivered: 1, retrying: 0, failed: 0 });
    expect(await dispatchAt(dispatch, at(3_600_000)), 'delivered once and for all').to.deep.include({ attempted: 0 });

    expect(received).to.have.length(3);
    for (const [n, request] of received.entries()) {
      expect(request.verified, `attempt ${n + 1} verifies`).not.to.be.instanceOf(Error);
      expect(request.verified).to.deep.include({
        specversion: '1.0',
        id: '3f1c2a8e-0000-4000-8000-000000000001',
        type: 'petstore.pet.created',
        source: '/petstore',
      });
      expect(request.path).to.equal('/hook?team=pets');
      expect(request.headers['webhook-id']).to.equal('3f1c2a8e-0000-4000-8000-000000000001');
      expect(request.headers['content-type']).to.equal('application/cloudevents+json; charset=utf-8');
      expect(request.headers['webhook-signature']).to.match(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(JSON.stringify(request.headers)).not.to.contain(secrets.get('/hook?team=pets')!.slice('whsec_'.length));
    }
    expect(received.map((r) => r.headers['webhook-timestamp'])).to.deep.equal([0, 5, 35].map((s) => String(T0 / 1000 + s)));
    expect(new Set(received.map((r) => r.headers['webhook-signature'])).size, 'a fresh signature per attempt').to.equal(3);
    expect(new Set(received.map((r) => r.body)).size, 'the same body every time').to.equal(1);

    expect(told.map((t) => t.outcome)).to.deep.equal(['retrying', 'retrying', 'delivered']);
    expect(told[0]!.args).to.deep.equal(['3f1c2a8e-0000-4000-8000-000000000001', endpoint.id, 1, at(5_000), 'HTTP 503']);
    const [delivery] = await store.deliveries(endpoint.id, 1);
    expect(delivery).to.deep.include({
      status: 'delivered',
      attempts: 3,
      lastStatus: 204,
      lastError: null,
      nextAttemptAt: null,
      lastAttemptAt: at(35_000),
    });
  });

  it('tells a 410 whose disable the storage failed as a failed delivery that says so, not as an attempt to make again', async () => {
    const { url } = await receive(() => 410);
    const gone = await addEndpoint(`${url}/gone`);
    await publish('e1');
    const failingDisable: WebhookStore = Object.assign(Object.create(store) as WebhookStore, {
      disable: () => Promise.reject(new Error('disk I/O error')),
    });
    const dispatch = new WebhookDispatcher(failingDisable, clock, {
      outcomes: recordingOutcomes(told),
      random: () => 0.5,
      timeoutMs: 2_000,
    });
    expect(await dispatchAt(dispatch, at(0))).to.deep.equal({ attempted: 1, delivered: 0, retrying: 0, failed: 1 });
    expect(told).to.deep.equal([
      {
        outcome: 'failed',
        args: ['e1', gone.id, 'HTTP 410 Gone: the endpoint could not be disabled (Error: disk I/O error); its next 410 disables it'],
      },
    ]);
    expect((await store.deliveries(gone.id, 1))[0]).to.deep.include({ status: 'failed', lastStatus: 410 });
    expect((await store.list()).map((e) => e.disabledAt)).to.deep.equal([null]);
  });

  it('disables an endpoint that answers 410 Gone: the delivery fails, and the endpoint gets nothing more', async () => {
    const { url, received } = await receive((_n, path) => (path === '/gone' ? 410 : 200));
    const gone = await addEndpoint(`${url}/gone`);
    const kept = await addEndpoint(`${url}/kept`);
    await publish('e1');
    const dispatch = dispatcher();
    expect(await dispatchAt(dispatch, at(0))).to.deep.equal({ attempted: 2, delivered: 1, retrying: 0, failed: 1 });
    expect(told.find((t) => t.outcome === 'failed')!.args).to.deep.equal(['e1', gone.id, 'HTTP 410 Gone: the endpoint is disabled']);
    expect((await store.list()).map((e) => [e.id, e.disabledAt])).to.deep.equal([
      [gone.id, at(0)],
      [kept.id, null],
    ]);
    expect((await store.deliveries(gone.id, 1))[0]).to.deep.include({ status: 'failed', lastStatus: 410 });

    await publish('e2');
    expect(await dispatchAt(dispatch, at(1_000))).to.deep.include({ attempted: 1, delivered: 1 });
    expect(received.map((r) => r.path).sort()).to.deep.equal(['/gone', '/kept', '/kept']);
    for (const request of received) expect(request.verified, request.path).not.to.be.instanceOf(Error);
  });

  it('claims nothing more once stopped, even in a claim loop under way: stop waits for those started alone', async () => {
    // Ten endpoints on a port where nothing listens: every claim comes back full, every attempt fails at once.
    const closed = await startReceiver(
      () => 'whsec_AAAA',
      () => 204,
    );
    const nowhere = closed.url;
    await closed.close();
    for (let i = 0; i < 10; i++) await addEndpoint(`${nowhere}/e${i}`);
    await publish(...Array.from({ length: 10 }, (_, i) => `e${i}`));
    const dispatch = dispatcher(2_000, { batchSize: 5, maxInFlight: 100 });
    const starting = dispatch.startDue();
    await dispatch.stop();
    expect(await starting, 'the claim under way when stop came, and no other').to.equal(5);
    expect(told, 'the attempts of that claim alone').to.have.length(5);
  });

  it('tells the attempts under way when a 410 disabled their endpoint: made, and superseded, not silent', async () => {
    const { url, received } = await receive(() => 410);
    const gone = await addEndpoint(`${url}/gone`);
    await publish('e1', 'e2', 'e3');
    const dispatch = dispatcher();
    await dispatchAt(dispatch, at(0));
    expect(received, 'the three sent together').to.have.length(3);
    const failed = told.filter((t) => t.outcome === 'failed');
    const superseded = told.filter((t) => t.outcome === 'superseded');
    expect(failed.length + superseded.length, 'every attempt told').to.equal(3);
    expect(failed.length, 'the 410 recorded first disables the endpoint').to.be.at.least(1);
    expect(superseded.length, 'attempts whose endpoint was disabled while they waited (the race happened)').to.be.at.least(1);
    for (const t of superseded) expect(t.args.slice(1)).to.deep.equal([gone.id, false, 'HTTP 410']);
  });

  it('retries an attempt that gets no answer within the timeout', async () => {
    const { url, received } = await receive((n) => (n === 0 ? 'hang' : 200));
    const endpoint = await addEndpoint(`${url}/slow`);
    await publish('e1');
    const dispatch = dispatcher(200);
    const started = Date.now();
    expect(await dispatchAt(dispatch, at(0))).to.deep.include({ attempted: 1, retrying: 1 });
    expect(Date.now() - started, 'the attempt was cut at its timeout').to.be.below(2_000);
    expect(told[0]!.args[4]).to.equal('no answer within 200 ms');
    expect((await store.deliveries(endpoint.id, 1))[0]).to.deep.include({
      status: 'pending',
      lastStatus: null,
      lastError: 'no answer within 200 ms',
    });
    expect(await dispatchAt(dispatch, at(5_000))).to.deep.include({ delivered: 1 });
    expect(received.map((r) => r.headers['webhook-id'])).to.deep.equal(['e1', 'e1']);
  });

  it('schedules the retry of an attempt that got no answer from when it failed, not from when it was sent', async () => {
    const { url } = await receive(() => {
      // The receiver keeps the request while ten seconds pass on the clock.
      now = at(10_000);
      return 'hang';
    });
    const endpoint = await addEndpoint(`${url}/slow`);
    await publish('e1');
    const dispatch = dispatcher(200);
    expect(await dispatchAt(dispatch, at(0))).to.deep.include({ attempted: 1, retrying: 1 });
    expect(told[0]!.args.slice(2)).to.deep.equal([1, at(15_000), 'no answer within 200 ms']);
    expect(await dispatch.nextDueAt()).to.deep.equal(at(15_000));
    expect((await store.deliveries(endpoint.id, 1))[0]).to.deep.include({ lastAttemptAt: at(0), nextAttemptAt: at(15_000) });
    expect(await dispatchAt(dispatch, at(14_999)), 'not due 5 s after it was sent').to.deep.include({ attempted: 0 });
  });

  it('starts the deliveries due while others wait for their answer: a receiver that hangs holds up no other endpoint', async () => {
    const { url, received, hanging } = await receive((_n, path) => (path === '/slow' ? 'hang' : 204));
    await addEndpoint(`${url}/slow`);
    await publish('e1');
    await addEndpoint(`${url}/ok`);
    await publish('e2');
    // One delivery per claim, soonest first: /slow's first comes before /ok's.
    const dispatch = dispatcher(300, { batchSize: 1 });
    expect(await dispatch.startDue()).to.equal(3);
    await eventually(() => received.some((r) => r.path === '/ok'), 'the delivery to /ok');
    expect(hanging(), "/slow's requests are still waiting for their answer").to.equal(2);
    await dispatch.settled();
    expect(told.map((t) => `${t.outcome} ${String(t.args[0])}`).sort()).to.deep.equal(['delivered e2', 'retrying e1', 'retrying e2']);
  });

  it('keeps at most maxInFlight attempts under way, and starts more on its own as they end', async () => {
    const { url, received } = await receive(() => 'hang');
    await addEndpoint(`${url}/slow`);
    await publish('e1', 'e2', 'e3');
    const dispatch = dispatcher(200, { batchSize: 1, maxInFlight: 2 });
    expect(await dispatch.startDue()).to.equal(2);
    expect(await dispatch.startDue(), 'no room while both wait').to.equal(0);
    await eventually(() => received.length === 2, 'the first two requests');
    expect(received.map((r) => r.headers['webhook-id'])).to.deep.equal(['e1', 'e2']);
    await dispatch.settled();
    expect(
      received.map((r) => r.headers['webhook-id']),
      'the third, started as the first two ended',
    ).to.deep.equal(['e1', 'e2', 'e3']);
    expect(await dispatch.startDue(), 'nothing more is due: the retries come later').to.equal(0);
  });

  it('sends a backlog to one endpoint as fast as it answers, not a batch per call; after stop, starts nothing', async () => {
    const { url, received } = await receive(() => 204);
    await addEndpoint(`${url}/fast`);
    const ids = Array.from({ length: 40 }, (_, i) => `e${i + 1}`);
    await publish(...ids);
    const dispatch = dispatcher(2_000, { batchSize: 5, maxInFlightPerEndpoint: 5 });
    expect(await dispatch.startDue(), 'one claim: five for the endpoint').to.equal(5);
    await dispatch.settled();
    expect(received.map((r) => r.headers['webhook-id']).sort()).to.deep.equal([...ids].sort());
    expect(told.filter((t) => t.outcome === 'delivered')).to.have.length(40);
    await publish('late');
    await dispatch.stop();
    expect(await dispatch.startDue(), 'stopped').to.equal(0);
    expect(received).to.have.length(40);
  });

  it('keeps at most maxInFlightPerEndpoint attempts to one endpoint under way: a hanging one with more due than maxInFlight leaves room for others', async () => {
    const { url, received, hanging } = await receive((_n, path) => (path === '/slow' ? 'hang' : 204));
    await addEndpoint(`${url}/slow`);
    await publish('e1', 'e2', 'e3', 'e4');
    await addEndpoint(`${url}/ok`);
    await publish('e5');
    // /slow's four come first, and would fill all three places.
    const dispatch = dispatcher(5_000, { maxInFlight: 3, maxInFlightPerEndpoint: 2 });
    expect(await dispatch.startDue()).to.equal(3);
    await eventually(() => hanging() === 2 && received.some((r) => r.path === '/ok'), "/ok's delivery while two of /slow's hang");
    expect(received.filter((r) => r.path === '/slow').map((r) => r.headers['webhook-id'])).to.deep.equal(['e1', 'e2']);
    await receiver!.close();
    receiver = undefined;
    await dispatch.settled();
  });

  it("claims and signs each batch of a backlog at the clock's time then, not the first batch's", async () => {
    const { url, received } = await receive(() => {
      // Each request takes a minute of the clock.
      now = new Date(now.getTime() + 60_000);
      return 204;
    });
    const endpoint = await addEndpoint(`${url}/hook`);
    await publish('e1', 'e2', 'e3');
    // Claims that hold longer than the minutes the clock moves meanwhile: each is taken once.
    const dispatch = dispatcher(2_000, { batchSize: 2, maxInFlight: 2, leaseMs: 3_600_000 });
    expect(await dispatch.startDue()).to.equal(2);
    await dispatch.settled();
    expect(
      received.map((r) => r.headers['webhook-id']),
      'the third, claimed once there was room',
    ).to.deep.equal(['e1', 'e2', 'e3']);
    const stamps = Object.fromEntries(received.map((r) => [r.headers['webhook-id'], Number(r.headers['webhook-timestamp'])]));
    // The third is claimed when the first attempt ends: one or two requests (a minute each) later.
    const third = stamps['e3']! - T0 / 1000;
    expect([60, 120], 'seconds after the first batch').to.include(third);
    expect(stamps).to.deep.equal({ e1: T0 / 1000, e2: T0 / 1000, e3: T0 / 1000 + third });
    for (const request of received) expect(request.verified, String(request.headers['webhook-id'])).not.to.be.instanceOf(Error);
    const attempted = await store.deliveries(endpoint.id, 3);
    expect(attempted.map((d) => [d.eventId, d.status, d.lastAttemptAt])).to.deep.equal([
      ['e3', 'delivered', at(third * 1000)],
      ['e2', 'delivered', at(0)],
      ['e1', 'delivered', at(0)],
    ]);
  });

  it('does not follow a redirect: it is an attempt that failed', async () => {
    const { url, received } = await receive(() => 302);
    await addEndpoint(`${url}/moved`);
    await publish('e1');
    expect(await dispatchAt(dispatcher(), at(0))).to.deep.include({ retrying: 1 });
    expect(received.map((r) => r.path)).to.deep.equal(['/moved']);
  });

  it('gives a refused connection every attempt of the schedule, then fails the delivery', async () => {
    const closed = await receive(() => 200);
    const endpoint = await addEndpoint(`${closed.url}/down`);
    await closed.close();
    receiver = undefined;
    await publish('e1');
    const dispatch = dispatcher();
    for (let attempt = 1; attempt <= WEBHOOK_MAX_ATTEMPTS; attempt++) {
      expect(await dispatchAt(dispatch, now), `attempt ${attempt}`).to.deep.include({ attempted: 1 });
      now = (await dispatch.nextDueAt()) ?? now;
    }
    expect(await dispatch.nextDueAt()).to.equal(undefined);
    expect(told.map((t) => t.outcome)).to.deep.equal([...Array<string>(WEBHOOK_MAX_ATTEMPTS - 1).fill('retrying'), 'failed']);
    expect(String(told.at(-1)!.args[2])).to.contain('ECONNREFUSED');
    expect((await store.deliveries(endpoint.id, 1))[0]).to.deep.include({
      status: 'failed',
      attempts: WEBHOOK_MAX_ATTEMPTS,
      nextAttemptAt: null,
    });
  });

  it('takes an event again from the relay without a second delivery, and the memory store behaves the same', async () => {
    for (const each of [store, new MemoryWebhookStore()]) {
      const endpoint = await each.add({
        url: 'https://hooks.example/' as WebhookUrl,
        eventTypes: [],
        secret: generateWebhookSecret(),
        createdAt: at(0),
      });
      const transport = webhooksTransport(each, { now: () => at(0) }, '/petstore');
      expect(transport.name).to.equal('webhooks');
      await transport.publish([event('e1')]);
      await transport.publish([event('e1'), event('e2')]);
      expect((await each.deliveries(endpoint.id, 10)).map((d) => d.eventId)).to.deep.equal(['e2', 'e1']);
    }
  });
});

describe('webhooks on the relay of a pet store', () => {
  let petStore: PetStore | undefined;
  let receiver: Receiver | undefined;
  afterEach(async () => {
    // The receiver first: its hanging requests end, and with them the attempts the store's close awaits.
    await receiver?.close();
    receiver = undefined;
    await petStore?.close();
    petStore = undefined;
  });

  it('hands events on, to subscribers and to another endpoint, while a receiver keeps a request unanswered', async () => {
    receiver = await startReceiver(
      () => 'whsec_AAAA',
      (_n, path) => (path === '/slow' ? 'hang' : 204),
    );
    const { received, hanging } = receiver;
    petStore = await createPetStore({ db: 'memory' });
    const admin = await petStore.container.getAsync<WebhookAdmin>(TOKENS.WebhookAdmin);
    await admin.add(`${receiver.url}/slow` as WebhookUrl, []);
    await admin.add(`${receiver.url}/ok` as WebhookUrl, []);
    const heard: PetEvent[] = [];
    petStore.events.subscribe((heardEvent) => void heard.push(heardEvent));
    const create = async (name: string) => {
      const draft = NewPet.decode({ name, categoryId: 1 });
      if (E.isLeft(draft)) throw new Error('test value does not decode');
      expect(E.isRight(await petStore!.useCases.createPet(draft.right)())).to.equal(true);
    };

    await create('First');
    await eventually(() => hanging() === 1 && received.some((r) => r.path === '/ok'), 'the first event at both endpoints', 500);
    await create('Second');
    await eventually(() => heard.length === 2, 'the second event heard in the process', 500);
    await eventually(() => received.filter((r) => r.path === '/ok').length === 2, 'the second event at /ok', 500);
    expect(hanging(), 'the first request to /slow is still unanswered').to.be.at.least(1);
    expect(received.filter((r) => r.path === '/ok').map((r) => r.headers['webhook-id'])).to.have.members(heard.map((e) => e.id));
  });
});

describe('webhook secrets', () => {
  it('are whsec_ and 24 random bytes in base64, accepted by the standardwebhooks package, never twice the same', () => {
    const made = Array.from({ length: 100 }, generateWebhookSecret);
    for (const secret of made) {
      expect(secret).to.match(/^whsec_[A-Za-z0-9+/]{32}$/);
      expect(Buffer.from(secret.slice(6), 'base64')).to.have.length(24);
      expect(() => new Webhook(secret)).not.to.throw();
    }
    expect(new Set(made).size).to.equal(100);
  });
});
