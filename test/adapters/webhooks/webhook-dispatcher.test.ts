// The webhook dispatcher against a real HTTP receiver on 127.0.0.1 that checks every request
// with the standardwebhooks package, as a consumer would. Time is driven by the `now` given to
// dispatchDue, so no test waits for a backoff; it starts at the real time, as the receiver's
// check refuses timestamps more than 5 minutes away.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { MemoryWebhookStore } from '../../../src/adapters/memory/memory-webhook-store.js';
import { openSqliteDatabase, SQLITE_IN_MEMORY } from '../../../src/adapters/sqlite/open-sqlite-database.js';
import { SqliteWebhookStore } from '../../../src/adapters/sqlite/sqlite-webhook-store.js';
import { type WebhookOutcomes, WebhookDispatcher } from '../../../src/adapters/webhooks/webhook-dispatcher.js';
import { generateWebhookSecret } from '../../../src/adapters/webhooks/webhook-secret.js';
import { webhooksTransport } from '../../../src/adapters/webhooks/webhooks-transport.js';
import {
  type PetEvent,
  type PetId,
  petCreated,
  WEBHOOK_MAX_ATTEMPTS,
  type WebhookEndpoint,
  type WebhookStore,
  type WebhookUrl,
} from '../../../src/domain/index.js';

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
  close(): Promise<void>;
}

async function startReceiver(secretFor: (path: string) => string, script: Script): Promise<Receiver> {
  const received: Received[] = [];
  const hanging: ServerResponse[] = [];
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
      if (answer === 'hang') hanging.push(res);
      else res.writeHead(answer, answer === 302 ? { location: '/elsewhere' } : {}).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
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

  beforeEach(() => {
    const db = openSqliteDatabase(SQLITE_IN_MEMORY);
    store = new SqliteWebhookStore(db);
    closeStore = () => db.close();
    told = [];
    secrets = new Map();
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
  const dispatcher = (timeoutMs = 2_000) =>
    new WebhookDispatcher(store, { outcomes: recordingOutcomes(told), random: () => 0.5, timeoutMs });
  const publish = (...ids: string[]) => webhooksTransport(store, { now: () => at(0) }, '/petstore').publish(ids.map(event));

  it('retries a 503 with the same webhook-id and a fresh valid signature each time, until a 2xx delivers it', async () => {
    const { url, received } = await receive((n) => (n < 2 ? 503 : 204));
    const endpoint = await addEndpoint(`${url}/hook?team=pets`);
    await publish('3f1c2a8e-0000-4000-8000-000000000001');
    const dispatch = dispatcher();

    expect(await dispatch.dispatchDue(at(0))).to.deep.equal({ attempted: 1, delivered: 0, retrying: 1, failed: 0 });
    expect(await dispatch.dispatchDue(at(4_999)), 'not before the first retry is due').to.deep.include({ attempted: 0 });
    expect(await dispatch.nextDueAt()).to.deep.equal(at(5_000));
    expect(await dispatch.dispatchDue(at(5_000))).to.deep.include({ attempted: 1, retrying: 1 });
    expect(await dispatch.nextDueAt()).to.deep.equal(at(35_000));
    expect(await dispatch.dispatchDue(at(35_000))).to.deep.equal({ attempted: 1, delivered: 1, retrying: 0, failed: 0 });
    expect(await dispatch.dispatchDue(at(3_600_000)), 'delivered once and for all').to.deep.include({ attempted: 0 });

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

  it('disables an endpoint that answers 410 Gone: the delivery fails, and the endpoint gets nothing more', async () => {
    const { url, received } = await receive((_n, path) => (path === '/gone' ? 410 : 200));
    const gone = await addEndpoint(`${url}/gone`);
    const kept = await addEndpoint(`${url}/kept`);
    await publish('e1');
    const dispatch = dispatcher();
    expect(await dispatch.dispatchDue(at(0))).to.deep.equal({ attempted: 2, delivered: 1, retrying: 0, failed: 1 });
    expect(told.find((t) => t.outcome === 'failed')!.args).to.deep.equal(['e1', gone.id, 'HTTP 410 Gone: the endpoint is disabled']);
    expect((await store.list()).map((e) => [e.id, e.disabledAt])).to.deep.equal([
      [gone.id, at(0)],
      [kept.id, null],
    ]);
    expect((await store.deliveries(gone.id, 1))[0]).to.deep.include({ status: 'failed', lastStatus: 410 });

    await publish('e2');
    expect(await dispatch.dispatchDue(at(1_000))).to.deep.include({ attempted: 1, delivered: 1 });
    expect(received.map((r) => r.path).sort()).to.deep.equal(['/gone', '/kept', '/kept']);
    for (const request of received) expect(request.verified, request.path).not.to.be.instanceOf(Error);
  });

  it('retries an attempt that gets no answer within the timeout', async () => {
    const { url, received } = await receive((n) => (n === 0 ? 'hang' : 200));
    const endpoint = await addEndpoint(`${url}/slow`);
    await publish('e1');
    const dispatch = dispatcher(200);
    const started = Date.now();
    expect(await dispatch.dispatchDue(at(0))).to.deep.include({ attempted: 1, retrying: 1 });
    expect(Date.now() - started, 'the attempt was cut at its timeout').to.be.below(2_000);
    expect(told[0]!.args[4]).to.equal('no answer within 200 ms');
    expect((await store.deliveries(endpoint.id, 1))[0]).to.deep.include({
      status: 'pending',
      lastStatus: null,
      lastError: 'no answer within 200 ms',
    });
    expect(await dispatch.dispatchDue(at(5_000))).to.deep.include({ delivered: 1 });
    expect(received.map((r) => r.headers['webhook-id'])).to.deep.equal(['e1', 'e1']);
  });

  it('does not follow a redirect: it is an attempt that failed', async () => {
    const { url, received } = await receive(() => 302);
    await addEndpoint(`${url}/moved`);
    await publish('e1');
    expect(await dispatcher().dispatchDue(at(0))).to.deep.include({ retrying: 1 });
    expect(received.map((r) => r.path)).to.deep.equal(['/moved']);
  });

  it('gives a refused connection every attempt of the schedule, then fails the delivery', async () => {
    const closed = await receive(() => 200);
    const endpoint = await addEndpoint(`${closed.url}/down`);
    await closed.close();
    receiver = undefined;
    await publish('e1');
    const dispatch = dispatcher();
    let now = at(0);
    for (let attempt = 1; attempt <= WEBHOOK_MAX_ATTEMPTS; attempt++) {
      expect(await dispatch.dispatchDue(now), `attempt ${attempt}`).to.deep.include({ attempted: 1 });
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
