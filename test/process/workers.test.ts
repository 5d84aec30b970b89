// PETSTORE_WORKERS=N: the compiled server as a node:cluster primary and N workers on one port
// and one SQLite file (and once on PostgreSQL). Requests reach every worker, writes through all of them land in the one
// database, a dead worker is replaced, and SIGTERM stops them all cleanly.
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect } from 'chai';
import { expectNothingLostNothingInvented, listAllPets, startCreateStream } from '../support/create-stream.js';
import { clientFor } from '../support/http-client.js';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../support/postgres.js';
import {
  baseUrlOf,
  logLinesOf,
  PROCESS_START_MS,
  type ServerProcess,
  spawnServer,
  stopIfRunning,
  timeoutForProcesses,
  waitForLogLines,
  waitForOutput,
} from '../support/server-process.js';
import { tempDir } from '../support/temp-dir.js';

const KEY = 'workers-test-key-0123456789';
/** The processes of a server with PETSTORE_WORKERS=2: the primary and its two workers. */
const CLUSTER = 3;

/** Waits until the primary says that all its workers listen: each of them a process to start. */
const allListening = (server: ServerProcess) => waitForOutput(server, /"msg":"all workers listening"/, CLUSTER * PROCESS_START_MS);

interface LogLine {
  readonly msg?: string;
  readonly worker?: number;
  readonly pid?: number;
}

const logLines = (server: ServerProcess): LogLine[] => logLinesOf(server);

/** The workers that wrote a request log line among `lines`. */
const workersThatAnswered = (lines: readonly LogLine[]): Set<number> =>
  new Set(lines.flatMap((line) => (line.msg === 'request' && line.worker !== undefined ? [line.worker] : [])));

/** The workers that answered once their log lines are out, waiting until `expected` have if it takes a moment. */
const answeredBy = async (server: ServerProcess, expected: (workers: Set<number>) => boolean): Promise<Set<number>> =>
  workersThatAnswered(await waitForLogLines(server, (lines) => expected(workersThatAnswered(lines))));

/** The 'listening' lines of the workers, once `count` of them are out. */
const listeningWorkers = async (server: ServerProcess, count: number): Promise<LogLine[]> =>
  ((await waitForLogLines(server, (lines) => lines.filter((line) => line['msg'] === 'listening').length >= count)) as LogLine[]).filter(
    (line) => line.msg === 'listening',
  );

describe('the compiled server with PETSTORE_WORKERS', () => {
  let dir: ReturnType<typeof tempDir>;
  let server: ServerProcess | undefined;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(async () => {
    // SIGTERM, so that the primary stops its workers before the folder goes.
    await stopIfRunning(server, 'SIGTERM');
    server = undefined;
    dir.remove();
  });

  const start = async (env: Record<string, string>): Promise<string> => {
    server = spawnServer({ PETSTORE_DB: join(dir.path, 'petstore.db'), PETSTORE_WORKERS: '2', ...env });
    await allListening(server);
    return new URL(await baseUrlOf(server)).origin;
  };

  it('shares one port and one SQLite file between the workers: creates through both, no lost write, unique ids', async function () {
    this.timeout(timeoutForProcesses(CLUSTER));
    const origin = await start({ PETSTORE_API_KEYS: KEY });
    const stream = startCreateStream({ origins: [origin], apiKey: KEY, workers: 6, total: 120, prefix: 'cluster' });
    await stream.done;
    expect(stream.unexpected.map((res) => `${res.status} ${res.text}`)).to.deep.equal([]);
    expect(stream.connectionErrors).to.deep.equal([]);
    expect(stream.acknowledged).to.have.length(120);
    expectNothingLostNothingInvented(await listAllPets(origin, KEY), stream);
    // Every request opened its own connection, and the primary hands connections out in turn.
    expect([...(await answeredBy(server!, (workers) => workers.size === 2))].sort()).to.deep.equal([1, 2]);
  });

  it('prints one generated key when none is configured, and every worker accepts it', async function () {
    this.timeout(timeoutForProcesses(CLUSTER));
    const origin = await start({});
    const key = (await waitForOutput(server!, /generated API key[^\n]*\n\n {2}(\S+)\n/))[1]!;
    expect(server!.output().match(/generated API key/g)).to.have.length(1);
    const api = clientFor(origin, key);
    for (let i = 0; i < 6; i += 1) expect((await api.get('/v1/pets')).status).to.equal(200);
    expect((await answeredBy(server!, (workers) => workers.size === 2)).size).to.equal(2);
  });

  it('replaces a worker that dies, keeps serving meanwhile, and stops every worker on SIGTERM, exiting 0', async function () {
    this.timeout(timeoutForProcesses(CLUSTER + 1));
    const origin = await start({ PETSTORE_API_KEYS: KEY });
    const victim = (await listeningWorkers(server!, 2)).find((line) => line.worker === 1)!.pid!;
    process.kill(victim, 'SIGKILL');
    await waitForOutput(server!, /"msg":"a worker exited; starting another"/);
    const api = clientFor(origin, KEY);
    for (let i = 0; i < 4; i += 1) expect((await api.get('/v1/pets')).status).to.equal(200);
    await waitForOutput(server!, /"worker":3,[^\n]*"msg":"listening"/, PROCESS_START_MS);
    for (let i = 0; i < 6; i += 1) expect((await api.get('/v1/pets')).status).to.equal(200);
    expect((await answeredBy(server!, (workers) => workers.has(3))).has(3)).to.equal(true);

    const workers = (await listeningWorkers(server!, 3)).map((line) => line.pid!);
    expect(workers).to.have.length(3);
    server!.child.kill('SIGTERM');
    expect(await server!.exited).to.equal(0);
    for (const pid of workers) expect(() => process.kill(pid, 0), `worker ${pid} is gone`).to.throw();
  });

  it('exits 1 when the workers cannot start, and leaves no worker behind', async function () {
    this.timeout(timeoutForProcesses(CLUSTER));
    // The port is held by a listener of the test's own.
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = blocker.address() as AddressInfo;
      server = spawnServer({ PETSTORE_DB: join(dir.path, 'other.db'), PETSTORE_WORKERS: '2', PORT: String(port), PETSTORE_API_KEYS: KEY });
      expect(await server.exited).to.equal(1);
      expect(server.output()).to.contain('a worker could not start');
      expect(server.output()).to.contain('EADDRINUSE');
      const workers = logLines(server).flatMap((line) => (line.msg === 'could not start' ? [line.pid!] : []));
      expect(workers).to.not.have.length(0);
      for (const pid of workers) expect(() => process.kill(pid, 0), `worker ${pid} is gone`).to.throw();
    } finally {
      blocker.close();
    }
  });
});

describeWithPostgres('the compiled server with PETSTORE_WORKERS on PostgreSQL', () => {
  let schema: TestSchema;
  let server: ServerProcess | undefined;
  beforeEach(async () => {
    schema = await createTestSchema();
  });
  afterEach(async () => {
    await stopIfRunning(server);
    await schema.drop();
  });

  it('serves creates through both workers on a new schema, with no lost write, and stops cleanly on SIGTERM', async function () {
    this.timeout(timeoutForProcesses(CLUSTER));
    server = spawnServer({ PETSTORE_DB: schema.url, PETSTORE_WORKERS: '2', PETSTORE_API_KEYS: KEY, PETSTORE_PG_POOL_SIZE: '2' });
    await allListening(server);
    const origin = new URL(await baseUrlOf(server)).origin;
    const stream = startCreateStream({ origins: [origin], apiKey: KEY, workers: 6, total: 60, prefix: 'cluster-pg' });
    await stream.done;
    expect(stream.unexpected.map((res) => `${res.status} ${res.text}`)).to.deep.equal([]);
    expectNothingLostNothingInvented(await listAllPets(origin, KEY), stream);
    expect(stream.acknowledged).to.have.length(60);
    expect((await answeredBy(server, (workers) => workers.size === 2)).size).to.equal(2);
    server.child.kill('SIGTERM');
    expect(await server.exited).to.equal(0);
  });
});
