// The rate limits shared through Redis (PETSTORE_REDIS_URL), in process: two services on one
// Redis and one key prefix count a key's requests, and an address's failed authentications,
// together; another prefix counts apart; the client the container opened is closed with it.
import { expect } from 'chai';
import type { RedisRateLimitStore } from '../../src/adapters/redis/redis-rate-limit-store.js';
import { createPetStore } from '../../src/composition/pet-store.js';
import { TOKENS } from '../../src/composition/tokens.js';
import { expectError } from '../support/expect-error.js';
import { clientFor, request } from '../support/http-client.js';
import { deleteKeysUnder, describeWithRedis, REDIS_TEST_URL, testKeyPrefix } from '../support/redis.js';
import { startTestServer, TEST_API_KEY, type TestServer } from '../support/test-server.js';

describeWithRedis('rate limits shared through Redis', () => {
  let prefix: string;
  let servers: TestServer[];
  beforeEach(() => {
    prefix = testKeyPrefix();
    servers = [];
  });
  afterEach(async () => {
    for (const server of servers) await server.close();
    await deleteKeysUnder(prefix);
  });

  const startTwo = async (config: NonNullable<NonNullable<Parameters<typeof startTestServer>[1]>['config']>, keyPrefix = prefix) => {
    for (let i = 0; i < 2; i += 1) {
      servers.push(
        await startTestServer({ kind: 'memory' }, { config: { redisUrl: REDIS_TEST_URL!, redisKeyPrefix: keyPrefix, ...config } }),
      );
    }
    return servers.slice(-2).map((server) => server.url);
  };

  it('counts one key across both services: its budget is spent once, whichever answers', async () => {
    const urls = await startTwo({ rateLimit: { requests: 3, windowSeconds: 60 } });
    const statuses = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await clientFor(urls[i % 2]!, TEST_API_KEY).get('/v1/pets')).status);
    expect(statuses).to.deep.equal([200, 200, 200, 429, 429, 429]);
    // Services under another prefix share nothing with these.
    const [elsewhere] = await startTwo({ rateLimit: { requests: 3, windowSeconds: 60 } }, `${prefix}:other`);
    const res = await clientFor(elsewhere!, TEST_API_KEY).get('/v1/pets');
    expect(res.status).to.equal(200);
    expect(res.headers['ratelimit']).to.match(/^"per-key";r=2;t=\d+$/);
  });

  it('counts the failed authentications of one address across both services', async () => {
    const urls = await startTwo({ authFailureLimit: { requests: 3, windowSeconds: 60 } });
    for (let i = 0; i < 3; i += 1) expectError(await request(urls[i % 2]!, '/v1/pets'), 401, 'unauthorized');
    for (const url of urls) {
      const refused = await request(url, '/v1/pets', { headers: { Authorization: `Bearer ${TEST_API_KEY}` } });
      expectError(refused, 429, 'rate_limited');
      expect(Number(refused.headers['retry-after'])).to.be.within(1, 60);
    }
  });

  it('is opened by createPetStore from a URL and closed by close(), leaving no handle', async () => {
    const store = await createPetStore({
      redis: REDIS_TEST_URL!,
      redisKeyPrefix: prefix,
      http: { rateLimit: { requests: 5, windowSeconds: 60 } },
    });
    const { redis } = await store.container.getAsync<RedisRateLimitStore>(TOKENS.RateLimitStore);
    expect(redis.status).to.equal('ready');
    const ended = new Promise((resolve) => redis.once('end', resolve));
    await store.close();
    await ended;
    expect(redis.status).to.equal('end');
    const refused = await createPetStore({ redis: 'redis://:s3cret@cache:99999' }).catch((err: unknown) => err);
    expect(refused)
      .to.be.instanceOf(TypeError)
      .with.property('message')
      .that.matches(/^createPetStore: redis is not a valid redis:\/\/ URL/)
      .and.not.contains('s3cret');
  });
});
