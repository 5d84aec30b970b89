// Each transport at its own pace, from the compiled server, on SQLite and PostgreSQL: while NATS
// is down, the webhook endpoint still gets every event of the outage (NATS's backlog grows on
// /metrics, webhooks' does not); once NATS is back, every event of the outage is published once,
// each pet's in commit order; and an endpoint that holds its answers does not delay NATS.
//
// The measure (200 creates/s for 60 s, p99 latency) is scaled down to what fits the
// test budget: 20 pets each created and updated 9 times (200 events) during the outage, a
// receiver answering in 20 ms, and no figure of time asserted (docs/decisions/0028-each-transport-at-its-own-pace.md).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type JetStreamManager, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { expect } from 'chai';
import { loadCommands, runCommand } from '../support/command-line.js';
import { clientFor } from '../support/http-client.js';
import { describeWithNatsServer, type PrivateNats, startPrivateNats } from '../support/nats.js';
import { createTestSchema, POSTGRES_TEST_URL, type TestSchema } from '../support/postgres.js';
import { baseUrlOf, type ServerProcess, spawnServer, stopIfRunning, timeoutForProcesses } from '../support/server-process.js';
import { tempDir } from '../support/temp-dir.js';

const KEY = 'events-own-pace-key-0123456789';
const PETS = 20;
const UPDATES = 9;

interface CloudEvent {
  readonly id: string;
  readonly subject: string;
  readonly data: { readonly name?: string };
}

/** A receiver that answers each delivery in 20 ms, or, while `holding`, only once released. */
async function startReceiver() {
  const received = new Map<string, CloudEvent>();
  let held: Array<() => void> = [];
  const state = { holding: false, heldCount: () => held.length };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = () => {
        received.set(req.headers['webhook-id'] as string, JSON.parse(Buffer.concat(chunks).toString('utf8')) as CloudEvent);
        res.writeHead(204).end();
      };
      if (state.holding) held.push(answer);
      else setTimeout(answer, 20);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const release = () => {
    state.holding = false;
    for (const answer of held.splice(0)) answer();
    held = [];
  };
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received, state, release, server };
}

async function eventually(check: () => boolean | Promise<boolean>, what: string, attempts = 600): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect.fail(`never happened: ${what}`);
}

describeWithNatsServer('each transport at its own pace, from the compiled server', () => {
  before(loadCommands);
  let nats: PrivateNats;
  let admin: NatsConnection;
  let jsm: JetStreamManager;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let server: ServerProcess | undefined;

  beforeEach(async () => {
    nats = await startPrivateNats();
    admin = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
    // Short requests: one sent while the admin connection is still reconnecting is tried again at once.
    jsm = await jetstreamManager(admin, { timeout: 500 });
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await stopIfRunning(server);
    receiver.release();
    receiver.server.close();
    await admin.close();
    await nats.remove();
  });

  /** Every message of the stream, in stream order. */
  const stored = async (): Promise<CloudEvent[]> => {
    const info = await jsm.streams.info('PETSTORE').catch(() => undefined);
    if (info === undefined || info.state.messages === 0) return [];
    const messages: CloudEvent[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++)
      messages.push((await jsm.streams.getMessage('PETSTORE', { seq }))!.json<CloudEvent>());
    return messages;
  };

  async function run(db: string): Promise<void> {
    const env = { PETSTORE_DB: db, PETSTORE_API_KEYS: KEY, PETSTORE_NATS_URL: nats.url };
    server = spawnServer(env);
    const api = clientFor(await baseUrlOf(server), KEY);
    const added = await runCommand(['webhooks', 'add', receiver.url], env);
    expect(added.code, added.stderr).to.equal(0);
    const waitingFor = async (transport: string) =>
      Number(
        new RegExp(`^petstore_transport_events_pending\\{transport="${transport}"\\} (\\d+)$`, 'm').exec(
          (await api.get('/metrics')).text,
        )?.[1],
      );

    // Each pet created, then renamed UPDATES times, one change after another.
    const changePets = (round: string) =>
      Promise.all(
        Array.from({ length: PETS }, async (_, n) => {
          const created = await api.postJson('/v1/pets', { name: `${round} ${n}.0`, categoryId: 1 });
          expect(created.status, created.text).to.equal(201);
          let etag = created.headers['etag'] as string;
          for (let v = 1; v <= UPDATES; v++) {
            const res = await api.send(`/v1/pets/${(created.json as { id: number }).id}`, {
              method: 'PATCH',
              headers: { 'Content-Type': 'application/merge-patch+json', 'If-Match': etag },
              body: JSON.stringify({ name: `${round} ${n}.${v}` }),
            });
            expect(res.status, res.text).to.equal(200);
            etag = res.headers['etag'] as string;
          }
        }),
      );
    const events = PETS * (1 + UPDATES);

    await nats.stop();
    await changePets('outage');
    // Every event reaches the endpoint while NATS is still down; they all wait for NATS alone.
    await eventually(() => receiver.received.size === events, `the ${events} webhook deliveries of the outage`);
    await eventually(async () => (await waitingFor('nats')) === events, 'the outage waiting for NATS');
    expect(await waitingFor('webhooks')).to.equal(0);

    await nats.start();
    await eventually(async () => (await stored()).length >= events, 'the outage published once NATS is back');
    const published = await stored();
    expect(published.map((event) => event.id).sort(), 'each event once, the ids the endpoint got').to.deep.equal(
      [...receiver.received.keys()].sort(),
    );
    // One pet's events in commit order: its names, 0 to UPDATES.
    const byPet = new Map<string, string[]>();
    for (const event of published) byPet.set(event.subject, [...(byPet.get(event.subject) ?? []), event.data.name!]);
    for (const names of byPet.values())
      expect(names.map((name) => Number(name.split('.')[1]))).to.deep.equal([...Array(UPDATES + 1).keys()]);

    // An endpoint that holds every answer: NATS gets the next changes all the same.
    receiver.state.holding = true;
    const before = receiver.received.size;
    await changePets('held');
    // The race: the endpoint holds deliveries of these changes (and answers none) while NATS takes them all.
    await eventually(() => receiver.state.heldCount() > 0, 'the endpoint holding deliveries');
    await eventually(async () => (await stored()).length === 2 * events, 'the changes published while the endpoint holds its answers');
    expect(receiver.state.heldCount(), 'the endpoint still holding').to.be.greaterThan(0);
    expect(receiver.received.size, 'none answered meanwhile').to.equal(before);
    receiver.release();
    await eventually(() => receiver.received.size === 2 * events, 'the held deliveries made once answered');
  }

  it('on SQLite', async function () {
    this.timeout(timeoutForProcesses(2) + 60_000);
    const dir = tempDir();
    try {
      await run(join(dir.path, 'petstore.db'));
    } finally {
      await stopIfRunning(server);
      dir.remove();
    }
  });

  it('on PostgreSQL', async function () {
    if (POSTGRES_TEST_URL === undefined) this.skip();
    this.timeout(timeoutForProcesses(2) + 60_000);
    const schema: TestSchema = await createTestSchema();
    try {
      await run(schema.url);
    } finally {
      await stopIfRunning(server);
      await schema.drop();
    }
  });
});
