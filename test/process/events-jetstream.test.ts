// The compiled server with change events on NATS JetStream, as an operator runs it: events
// survive a broker outage (the outbox grows, then everything arrives), and a SIGKILL in the
// middle of concurrent creates and updates (after a restart, the stream holds exactly the
// changes that committed, each pet's in commit order).
import { join } from 'node:path';
import { type JetStreamManager, jetstreamManager, type StoredMsg } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { EVENTS_DEFAULTS } from '../../src/config/events-config.js';
import { clientFor } from '../support/http-client.js';
import { describeWithNatsServer, type PrivateNats, startPrivateNats } from '../support/nats.js';
import {
  baseUrlOf,
  logLinesOf,
  PROCESS_START_MS,
  type ServerProcess,
  spawnServer,
  stopIfRunning,
  timeoutForProcesses,
} from '../support/server-process.js';
import { tempDir } from '../support/temp-dir.js';

const KEY = 'events-jetstream-key-0123456789';
const STREAM = EVENTS_DEFAULTS.PETSTORE_NATS_STREAM;

interface CloudEventOf<D> {
  id: string;
  type: string;
  subject: string;
  source: string;
  data: D;
}
type PetData = { id: number; name: string; categoryId: number; status: string };

/** Polls `check` until it holds; fails the test with `what` when it never does. */
async function eventually(check: () => Promise<boolean>, what: string, attempts = 300): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect.fail(`never happened: ${what}`);
}

describeWithNatsServer('change events on NATS JetStream, from the compiled server', () => {
  let nats: PrivateNats;
  let admin: NatsConnection;
  let jsm: JetStreamManager;
  let dir: ReturnType<typeof tempDir>;
  let server: ServerProcess | undefined;

  beforeEach(async () => {
    nats = await startPrivateNats();
    admin = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
    // Short requests: one sent while the admin connection is still reconnecting is tried again at once.
    jsm = await jetstreamManager(admin, { timeout: 500 });
    dir = tempDir();
  });
  afterEach(async () => {
    await stopIfRunning(server);
    await admin.close();
    await nats.remove();
    dir.remove();
  });

  const dbPath = () => join(dir.path, 'petstore.db');
  const start = async () => {
    server = spawnServer({ PETSTORE_DB: dbPath(), PETSTORE_API_KEYS: KEY, PETSTORE_NATS_URL: nats.url });
    return clientFor(await baseUrlOf(server), KEY);
  };

  /** Every message of the stream, in stream order, as CloudEvents; none before it exists. */
  const stored = async (): Promise<Array<CloudEventOf<PetData | { id: number }>>> => {
    const info = await jsm.streams.info(STREAM).catch(() => undefined);
    if (info === undefined || info.state.messages === 0) return [];
    const messages: StoredMsg[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) messages.push((await jsm.streams.getMessage(STREAM, { seq }))!);
    return messages.map((message) => message.json<CloudEventOf<PetData>>());
  };

  const pendingOf = async (api: ReturnType<typeof clientFor>): Promise<number> => {
    const metrics = (await api.get('/metrics')).text;
    return Number(/^petstore_events_pending (\d+)$/m.exec(metrics)?.[1]);
  };

  it('keeps serving while NATS is down, lets the outbox grow, and delivers every event once NATS is back', async function () {
    this.timeout(timeoutForProcesses(1));
    const api = await start();
    const first = await api.postJson('/v1/pets', { name: 'before', categoryId: 1 });
    expect(first.status).to.equal(201);
    await eventually(async () => (await stored()).length === 1, 'the first event in the stream');

    await nats.stop();
    const during = [];
    for (let i = 0; i < 5; i++) {
      const res = await api.postJson('/v1/pets', { name: `during ${i}`, categoryId: 2 });
      expect(res.status, res.text).to.equal(201);
      during.push(res.json as PetData);
    }
    expect((await api.get('/readyz')).status, 'ready while the broker is away').to.equal(200);
    await eventually(async () => (await pendingOf(api)) === 5, 'five events pending in the outbox');

    await nats.start();
    await eventually(async () => (await stored()).length === 6, 'all six events in the stream');
    const events = await stored();
    expect(events.map((event) => event.subject)).to.deep.equal([first.json as PetData, ...during].map((pet) => String(pet.id)));
    expect(events.slice(1).map((event) => event.data)).to.deep.equal(during);
    expect(new Set(events.map((event) => event.id)).size).to.equal(6);
    await eventually(async () => (await pendingOf(api)) === 0, 'nothing pending once delivered');
  });

  it('after a SIGKILL during concurrent creates and updates, holds exactly the committed changes, each pet in commit order', async function () {
    this.timeout(timeoutForProcesses(2));
    let api = await start();
    // Writes go on until the kill: some are acknowledged, some cut off, some never sent.
    const acknowledged: PetData[] = [];
    let killed = false;
    const writer = async (n: number) => {
      for (let i = 0; !killed; i++) {
        const res = await api.postJson('/v1/pets', { name: `pet ${n}.${i}`, categoryId: n }).catch(() => undefined);
        if (res?.status !== 201) continue;
        const pet = res.json as PetData;
        acknowledged.push(pet);
        const etag = res.headers['etag'] as string;
        await api
          .send(`/v1/pets/${pet.id}`, {
            method: 'PATCH',
            headers: { 'Content-Type': 'application/merge-patch+json', 'If-Match': etag },
            body: JSON.stringify({ status: 'pending' }),
          })
          .catch(() => undefined);
      }
    };
    const writers = Array.from({ length: 6 }, (_, n) => writer(n + 1));
    await eventually(() => Promise.resolve(acknowledged.length >= 60), 'sixty creates acknowledged');
    await stopIfRunning(server, 'SIGKILL');
    killed = true;
    await Promise.all(writers);

    api = await start();
    const db = new Database(dbPath(), { readonly: true });
    const rows = db.prepare('SELECT id, name, category_id AS categoryId, status, version FROM pets ORDER BY id').all() as Array<
      PetData & { version: number }
    >;
    db.close();
    expect(rows.map((row) => row.id)).to.include.members(acknowledged.map((pet) => pet.id));
    const expectedEvents = rows.reduce((sum, row) => sum + row.version, 0);
    await eventually(async () => (await stored()).length >= expectedEvents, `${expectedEvents} events in the stream`);
    const events = await stored();
    expect(events).to.have.length(expectedEvents);
    expect(new Set(events.map((event) => event.id)).size, 'no event twice').to.equal(expectedEvents);

    const inDatabase = new Map(rows.map((row) => [String(row.id), row]));
    const byPet = new Map<string, typeof events>();
    for (const event of events) byPet.set(event.subject, [...(byPet.get(event.subject) ?? []), event]);
    expect(
      [...byPet.keys()].every((subject) => inDatabase.has(subject)),
      'no event for a pet that is not there',
    ).to.equal(true);
    for (const row of rows) {
      const own = byPet.get(String(row.id)) ?? [];
      const { version, ...pet } = row;
      // One created, then one updated per committed update (version − 1), the last as the pet is.
      expect(own.map((event) => event.type)).to.deep.equal([
        'petstore.pet.created',
        ...Array.from({ length: version - 1 }, () => 'petstore.pet.updated'),
      ]);
      expect(own.at(-1)!.data).to.deep.equal(pet);
    }
    await eventually(async () => (await pendingOf(api)) === 0, 'nothing pending after the restart');
  });

  it('exits 1, without ever listening, when its stream cannot be made: another stream holds the event subjects', async function () {
    this.timeout(timeoutForProcesses(1));
    await jsm.streams.add({ name: 'OTHER', subjects: ['petstore.pet.*'] });
    server = spawnServer({ PETSTORE_DB: 'memory', PETSTORE_API_KEYS: KEY, PETSTORE_NATS_URL: nats.url, PETSTORE_NATS_STREAM: 'OWN' });
    // A process that listened on would never exit: the wait is bounded to say so.
    const ended = await Promise.race([
      server.exited,
      new Promise((resolve) => setTimeout(() => resolve('still running'), PROCESS_START_MS)),
    ]);
    expect(ended, server.output()).to.equal(1);
    const lines = logLinesOf(server);
    expect(lines.map((line) => line['msg']))
      .to.include('could not start')
      .and.not.to.include('listening');
    expect(await jsm.streams.info('OWN').catch(() => 'absent')).to.equal('absent');
  });
});
