// A Redis outage under the shared rate limits, with a redis-server of the test's own killed
// mid-test: requests keep being answered at once, each process limits alone with its
// insurance limit (the same size), the outage is logged once at error and counted in
// petstore_rate_limit_store_failures_total, and the limits are shared again once Redis is back.
import { expect } from 'chai';
import { pino } from 'pino';
import { expectError } from '../support/expect-error.js';
import { clientFor, request, type TestResponse } from '../support/http-client.js';
import { describeWithRedisServer, type PrivateRedis, startPrivateRedis } from '../support/redis.js';
import { startTestServer, TEST_API_KEY, type TestServer } from '../support/test-server.js';

const LIMITS = { rateLimit: { requests: 5, windowSeconds: 60 }, authFailureLimit: { requests: 3, windowSeconds: 60 } };
const UNREACHABLE = 'Redis unreachable: each process applies the rate limits alone until it answers';
const BACK = 'Redis answers again: the rate limits are shared again';

/** The value of the counter for `policy` in a /metrics answer, 0 when it has none. */
const storeFailures = (metrics: TestResponse, policy: string): number =>
  Number(new RegExp(`^petstore_rate_limit_store_failures_total\\{policy="${policy}"\\} (\\d+)$`, 'm').exec(metrics.text)?.[1] ?? 0);

describeWithRedisServer('a Redis outage under the shared rate limits', () => {
  let redis: PrivateRedis;
  let server: TestServer | undefined;
  let logLines: Array<Record<string, unknown>>;
  const logger = () =>
    pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) });
  const linesSaying = (msg: string) => logLines.filter((line) => line['msg'] === msg);

  beforeEach(async () => {
    redis = await startPrivateRedis();
    logLines = [];
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await redis.kill();
  });

  async function waitForLine(msg: string): Promise<Record<string, unknown>> {
    for (let attempt = 0; attempt < 100 && linesSaying(msg).length === 0; attempt += 1)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(linesSaying(msg), msg).to.have.length(1);
    return linesSaying(msg)[0]!;
  }

  it('keeps answering with a per-process insurance limit, logs the outage once and counts it, then shares the limits again', async () => {
    server = await startTestServer(
      { kind: 'memory' },
      { logger: logger(), config: { ...LIMITS, redisUrl: redis.url, redisKeyPrefix: 'outage' } },
    );
    const api = clientFor(server.url, TEST_API_KEY);
    for (let i = 0; i < 2; i += 1) expect((await api.get('/v1/pets')).status).to.equal(200);
    expect(storeFailures(await request(server.url, '/metrics'), 'per-key')).to.equal(0);

    await redis.kill();
    const started = Date.now();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      const res = await api.get('/v1/pets');
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers['retry-after'])).to.be.within(1, 60);
    }
    // The insurance counts from nothing in this process: the five of its own window, then 429.
    expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 429, 429]);
    expect(Date.now() - started, 'no request waits for Redis').to.be.below(2000);
    // Failed authentications are still limited per address, by their own insurance.
    for (let i = 0; i < 3; i += 1) expectError(await request(server.url, '/v1/pets'), 401, 'unauthorized');
    expectError(await request(server.url, '/v1/pets'), 429, 'rate_limited');

    const lost = await waitForLine(UNREACHABLE);
    expect(lost['level']).to.equal(50); // error
    expect(lost['redis']).to.equal(`redis ${redis.url} (keys outage:…)`);
    expect(lost['fault']).to.have.property('message').that.is.a('string');
    const metrics = await request(server.url, '/metrics');
    expect(storeFailures(metrics, 'per-key')).to.equal(7);
    // One look before each of the 11 requests that needed a key, and one count for each of the 3 failures.
    expect(storeFailures(metrics, 'auth-failures')).to.equal(14);

    await redis.restart();
    await waitForLine(BACK);
    expect(linesSaying(UNREACHABLE), 'still one line for the whole outage').to.have.length(1);
    // Back in Redis, which lost its counts with its restart (it keeps nothing on disk).
    const shared = await api.get('/v1/pets');
    expect(shared.status).to.equal(200);
    expect(shared.headers['ratelimit']).to.match(/^"per-key";r=4;t=\d+$/);
  });

  it('starts while Redis cannot be reached, limiting alone and saying so once', async () => {
    await redis.kill();
    server = await startTestServer(
      { kind: 'memory' },
      { logger: logger(), config: { ...LIMITS, redisUrl: redis.url, redisKeyPrefix: 'outage' } },
    );
    const api = clientFor(server.url, TEST_API_KEY);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await api.get('/v1/pets')).status);
    expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 429]);
    await waitForLine(UNREACHABLE);
    expect(storeFailures(await request(server.url, '/metrics'), 'per-key')).to.equal(6);
  });
});
