// The compiled server as a real process, as `npm start` runs it: start-up, configuration,
// data that survives a restart, and a clean stop on SIGTERM/SIGINT. What a stopped server kept
// is read back by a server in the test's own process (withTestServer).
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { expect } from 'chai';
import { expectNothingLostNothingInvented, listAllPets, startCreateStream } from '../support/create-stream.js';
import { clientFor } from '../support/http-client.js';
import {
  baseUrlOf,
  type ServerProcess,
  spawnServer,
  stopIfRunning,
  timeoutForProcesses,
  waitForOutput,
} from '../support/server-process.js';
import { tempDir } from '../support/temp-dir.js';
import { TEST_API_KEY, withTestServer } from '../support/test-server.js';

const KEY = 'process-test-key-0123456789';

describe('the compiled server process', () => {
  let dir: ReturnType<typeof tempDir>;
  let running: ServerProcess | undefined;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(async () => {
    await stopIfRunning(running);
    running = undefined;
    dir.remove();
  });

  it('serves /v1 on a SQLite file, keeps pets and idempotency keys across instances and a restart, and exits 0 on SIGTERM and SIGINT', async function () {
    this.timeout(timeoutForProcesses(3));
    const env = { PETSTORE_DB: join(dir.path, 'data', 'petstore.db'), PETSTORE_API_KEYS: KEY };
    const headers = { 'Idempotency-Key': '"across-instances"' };
    const body = { name: 'Only once', categoryId: 1 };
    running = spawnServer(env);
    const second = spawnServer(env);
    try {
      const url = await baseUrlOf(running);
      expect(url).to.match(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const a = clientFor(new URL(url).origin, KEY);
      const b = clientFor(new URL(await baseUrlOf(second)).origin, KEY);
      const created = await a.postJson('/v1/pets', body, headers);
      expect(created.status).to.equal(201);
      const replay = await b.postJson('/v1/pets', body, headers);
      expect(replay.headers['idempotent-replayed']).to.equal('true');
      expect(replay.json).to.deep.equal(created.json);
      second.child.kill('SIGTERM');
      running.child.kill('SIGTERM');
      expect([await second.exited, await running.exited]).to.deep.equal([0, 0]);

      running = spawnServer(env);
      const c = clientFor(new URL(await baseUrlOf(running)).origin, KEY);
      expect((await c.get(`/v1/pets/${created.json.id}`)).json).to.deep.equal(created.json);
      const afterRestart = await c.postJson('/v1/pets', body, headers);
      expect(afterRestart.headers['idempotent-replayed']).to.equal('true');
      expect(afterRestart.json).to.deep.equal(created.json);
      expect((await c.get('/v1/pets')).json).to.have.length(1);
      running.child.kill('SIGINT');
      expect(await running.exited).to.equal(0);
    } finally {
      if (second.child.exitCode === null) second.child.kill('SIGKILL');
    }
  });

  // Loading ioredis 6 leaves String.prototype in V8's slow dictionary mode (its `class
  // VerbatimString extends String`), which cost about 10 % of a get by id's instructions: the
  // Redis adapter is loaded only when Redis is configured (docs/decisions/0011-redis-client-loaded-only-when-configured.md).
  it('loads no Redis client unless Redis is configured, and loads it when it is', async function () {
    this.timeout(timeoutForProcesses(2));
    const loadedIoredis = async (env: Record<string, string>): Promise<boolean> => {
      const preload = join(process.cwd(), 'test', 'support', 'report-ioredis-loaded.cjs');
      running = spawnServer({
        PETSTORE_DB: join(dir.path, 'petstore.db'),
        PETSTORE_API_KEYS: KEY,
        NODE_OPTIONS: `--require ${preload}`,
        ...env,
      });
      const api = clientFor(new URL(await baseUrlOf(running)).origin, KEY);
      expect((await api.get('/v1/pets')).status).to.equal(200);
      running.child.kill('SIGTERM');
      expect(await running.exited).to.equal(0);
      return /ioredis loaded: (true|false)/.exec(running.output())?.[1] === 'true';
    };
    expect(await loadedIoredis({})).to.equal(false);
    // Nothing listens on port 1: the server serves anyway, each process counting alone.
    expect(await loadedIoredis({ PETSTORE_REDIS_URL: 'redis://127.0.0.1:1', PETSTORE_RATE_LIMIT: '100/60' })).to.equal(true);
  });

  it('generates and prints one API key when none is configured, and that key works', async function () {
    this.timeout(timeoutForProcesses(1));
    running = spawnServer({ PETSTORE_DB: 'memory' });
    const url = await baseUrlOf(running);
    const printed = (await waitForOutput(running, /^ {2}([A-Za-z0-9_-]{43})$/m))[1];
    expect((await clientFor(new URL(url).origin, printed!).get('/v1/pets')).status).to.equal(200);
    expect((await clientFor(new URL(url).origin, 'some-other-key-0123456789').get('/v1/pets')).status).to.equal(401);
    expect(running.output().split(printed!).length - 1, 'the key is printed in one message').to.equal(2);
    // The log writes in batches: the listening line is out before the key is printed under it, as docs/getting-started.md shows.
    expect(running.output().indexOf('"msg":"listening"')).to.be.within(0, running.output().indexOf(printed!));
  });

  it('refuses to start on an invalid variable, naming it, with exit code 1', async function () {
    this.timeout(timeoutForProcesses(1));
    running = spawnServer({ PORT: 'eighty', PETSTORE_DB: 'memory' });
    expect(await running.exited).to.equal(1);
    expect(running.output()).to.contain('PORT must be an integer from 0 to 65535');
  });

  it('exits 1 with "could not start" when PostgreSQL cannot be reached, never printing the password', async function () {
    this.timeout(timeoutForProcesses(1));
    running = spawnServer({ PETSTORE_DB: 'postgres://app:start-secret-pw@127.0.0.1:1/pets', PETSTORE_API_KEYS: KEY });
    expect(await running.exited).to.equal(1);
    const fatal = running
      .output()
      .split('\n')
      .filter((line) => line.includes('"msg":"could not start"'));
    expect(fatal).to.have.length(1);
    expect(JSON.parse(fatal[0]!).fault.type).to.equal('StorageUnavailableError');
    expect(running.output()).not.to.contain('start-secret-pw');
    expect(running.output()).not.to.match(/\bat .+:\d+:\d+/); // no stack trace
  });

  it('finishes a request in flight on SIGTERM before it exits 0, and keeps what it acknowledged', async function () {
    this.timeout(timeoutForProcesses(1));
    const file = join(dir.path, 'petstore.db');
    running = spawnServer({ PETSTORE_DB: file, PETSTORE_API_KEYS: KEY });
    const origin = new URL(await baseUrlOf(running)).origin;
    const body = JSON.stringify({ name: 'In flight', categoryId: 1 });
    // Send the head and half the body, stop the server, then send the rest.
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(`${origin}/v1/pets`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.write(body.slice(0, 10));
      setTimeout(() => {
        running!.child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 300);
      }, 200);
    });
    const { status, text } = await answer;
    expect(status, text).to.equal(201);
    expect(await running.exited).to.equal(0);
    expect(running.output()).to.contain('"msg":"stopped"');

    const stored = await withTestServer(
      { kind: 'sqlite', path: file },
      async (origin) => (await clientFor(origin, TEST_API_KEY).get('/v1/pets')).json,
    );
    expect(stored).to.deep.equal([JSON.parse(text)]);
  });

  it('on SIGTERM under load: answers every request in flight in full, refuses new connections, exits 0, loses nothing', async function () {
    // The server's start, and a stream of creates until it stops.
    this.timeout(timeoutForProcesses(1) + 20_000);
    const file = join(dir.path, 'petstore.db');
    running = spawnServer({ PETSTORE_DB: file, PETSTORE_API_KEYS: KEY });
    const origin = new URL(await baseUrlOf(running)).origin;
    // 20 uploads in flight: head and half the body sent, the rest only after SIGTERM.
    const uploads = Array.from({ length: 20 }, (_, i) => {
      const body = JSON.stringify({ name: `Upload ${i}`, categoryId: i, status: 'pending' });
      const req = httpRequest(`${origin}/v1/pets`, {
        method: 'POST',
        agent: false,
        headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      });
      const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
        req.on('response', (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
          res.on('error', reject);
        });
        req.on('error', reject);
      });
      req.write(body.slice(0, 12));
      return { body, answer, finish: () => req.end(body.slice(12)) };
    });
    // And a stream of quick creates from 6 clients, running through the stop.
    const stream = startCreateStream({ origins: [origin], apiKey: KEY, workers: 6, total: 10_000, prefix: 'stream' });
    while (stream.acknowledged.length < 30) await new Promise((resolve) => setTimeout(resolve, 5));

    running.child.kill('SIGTERM');
    await waitForOutput(running, /"msg":"stopping: finishing requests in flight"/);
    // From now on no connection is accepted.
    const refused = await new Promise<string>((resolve) => {
      const socket = connect(Number(new URL(origin).port), '127.0.0.1');
      socket.on('connect', () => {
        socket.destroy();
        resolve('accepted');
      });
      socket.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    });
    expect(refused).to.equal('ECONNREFUSED');
    for (const upload of uploads) upload.finish();
    const answers = await Promise.all(uploads.map((upload) => upload.answer));
    await stream.done;

    for (const [i, { status, text }] of answers.entries()) {
      expect(status, text).to.equal(201);
      expect(JSON.parse(text)).to.deep.include(JSON.parse(uploads[i]!.body));
    }
    expect(
      stream.unexpected.map((res) => `${res.status} ${res.text}`),
      'no HTTP error, 5xx least of all',
    ).to.deep.equal([]);
    for (const error of stream.connectionErrors) expect(error).to.be.oneOf(['ECONNREFUSED', 'ECONNRESET', 'socket hang up']);
    expect(await running.exited).to.equal(0);
    expect(running.output()).to.contain('"msg":"stopped"');

    const stored = await withTestServer({ kind: 'sqlite', path: file }, (origin) => listAllPets(origin, TEST_API_KEY));
    const sent = new Map(stream.sent);
    for (const { body } of uploads) sent.set(JSON.parse(body).name, JSON.parse(body));
    expectNothingLostNothingInvented(stored, {
      acknowledged: [...stream.acknowledged, ...answers.map(({ text }) => JSON.parse(text))],
      sent,
    });
  });
});
