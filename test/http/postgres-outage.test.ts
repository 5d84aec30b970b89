// A PostgreSQL outage seen through the HTTP API: the service answers 503 Error bodies within a
// bounded time (never a 500, never a hang, never a crash) and serves again by itself once the
// database is back. The outage is played by a TCP proxy between the service and PostgreSQL.
import { expect } from 'chai';
import type { Pool } from 'pg';
import { pino } from 'pino';
import { openPostgresPool } from '../../src/adapters/postgres/create-postgres-pool.js';
import { TOKENS } from '../../src/composition/tokens.js';
import { expectError } from '../support/expect-error.js';
import { clientFor, type TestResponse } from '../support/http-client.js';
import { createTestSchema, describeWithPostgres, POSTGRES_TEST_URL, type TestSchema } from '../support/postgres.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { startTestServer, TEST_API_KEY, type TestServer } from '../support/test-server.js';

/** `response`, or a failure once `ms` have passed: a request must never hang. */
function bounded(response: Promise<TestResponse>, ms = 10_000): Promise<TestResponse> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([response, hang]).finally(() => clearTimeout(timer));
}

const expectUnavailable = (res: TestResponse): void => {
  expectError(res, 503, 'service_unavailable');
  expect(res.headers['retry-after']).to.equal('1');
};

describeWithPostgres('a PostgreSQL outage', () => {
  let schema: TestSchema;
  let proxy: TcpProxy;
  let server: TestServer | undefined;
  let logLines: string[];
  let proxiedUrl: string;
  const logger = () => pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });

  beforeEach(async () => {
    schema = await createTestSchema();
    const target = new URL(POSTGRES_TEST_URL!);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const url = new URL(schema.url);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    proxiedUrl = url.toString();
    logLines = [];
  });
  afterEach(async () => {
    await proxy.close();
    await server?.close();
    server = undefined;
    await schema.drop();
  });

  /** Up to `attempts` tries, 100 ms apart, until the list answers 200 again. */
  async function waitForRecovery(api: ReturnType<typeof clientFor>, attempts = 50): Promise<TestResponse> {
    let res: TestResponse | undefined;
    for (let attempt = 0; attempt < attempts; attempt += 1) {
      res = await bounded(api.get('/v1/pets?limit=100'));
      if (res.status === 200) return res;
      expectUnavailable(res);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no recovery after ${attempts} attempts: ${res?.text}`);
  }

  const faultsLogged = () => logLines.map((line) => JSON.parse(line)).filter((entry) => entry.level >= 50);

  it('answers 503 while the database refuses connections, and recovers by itself when it is back', async () => {
    server = await startTestServer({ kind: 'postgres', url: proxiedUrl, poolSize: 4 }, { logger: logger() });
    const api = clientFor(server.url, TEST_API_KEY);
    const created = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await api.postJson('/v1/pets', { name: `before ${i}`, categoryId: 1 });
      expect(res.status, res.text).to.equal(201);
      created.push(res.json);
    }

    proxy.cut('reset');
    for (let round = 0; round < 3; round += 1) {
      const answers = await Promise.all([
        bounded(api.get('/v1/pets')),
        bounded(api.get(`/v1/pets/${created[0].id}`)),
        bounded(api.postJson('/v1/pets', { name: 'during', categoryId: 1 })),
      ]);
      answers.forEach(expectUnavailable);
    }

    proxy.restore();
    expect((await waitForRecovery(api)).json).to.deep.equal(created);
    const after = await api.postJson('/v1/pets', { name: 'after', categoryId: 1 });
    expect(after.status, after.text).to.equal(201);
    expect(after.json.id).to.be.greaterThan(created[2].id);
    expect(faultsLogged(), 'no request was answered as an unexpected fault').to.deep.equal([]);
    expect(logLines.some((line) => line.includes('"msg":"storage unavailable in GET /v1/pets"'))).to.equal(true);
  });

  it('answers 503 within the timeouts while the database is silent, and recovers by itself', async () => {
    // Short timeouts, set by rebinding the pool (the server's defaults are 2 s and 5 s + 1 s).
    server = await startTestServer(
      { kind: 'postgres', url: proxiedUrl, poolSize: 2 },
      {
        logger: logger(),
        configure: (container) =>
          container
            .rebind<Pool>(TOKENS.PostgresPool)
            .toResolvedValue(() =>
              openPostgresPool({ url: proxiedUrl, poolSize: 2, connectionTimeoutMs: 500, statementTimeoutMs: 1000, queryTimeoutMs: 1000 }),
            )
            .onDeactivation((pool) => pool.end()),
      },
    );
    const api = clientFor(server.url, TEST_API_KEY);
    const pet = await api.postJson('/v1/pets', { name: 'before', categoryId: 1 });
    expect(pet.status).to.equal(201);

    proxy.cut('silent');
    // A query on an open connection that no longer answers, then new connections that never
    // complete, then more requests at once than the pool has connections: each is a 503.
    expectUnavailable(await bounded(api.get('/v1/pets')));
    expectUnavailable(await bounded(api.postJson('/v1/pets', { name: 'during', categoryId: 1 })));
    (await Promise.all(Array.from({ length: 5 }, () => bounded(api.get(`/v1/pets/${pet.json.id}`))))).forEach(expectUnavailable);

    proxy.restore();
    expect((await waitForRecovery(api)).json).to.deep.equal([pet.json]);
    expect(faultsLogged(), 'no request was answered as an unexpected fault').to.deep.equal([]);
  });
});
