// One rate limit for the fleet: two compiled server processes on one PostgreSQL database and
// one Redis, with PETSTORE_RATE_LIMIT=10/60. Twenty requests of one key, alternating between
// them, get exactly ten 200s and then ten 429s with Retry-After: the instances count together.
import { expect } from 'chai';
import { describeUnless } from '../support/describe-unless.js';
import { clientFor } from '../support/http-client.js';
import { createTestSchema, POSTGRES_SKIP_REASON, POSTGRES_TEST_URL, type TestSchema } from '../support/postgres.js';
import { deleteKeysUnder, REDIS_SKIP_REASON, REDIS_TEST_URL, testKeyPrefix } from '../support/redis.js';
import { baseUrlOf, type ServerProcess, spawnServer, stopIfRunning, timeoutForProcesses } from '../support/server-process.js';

const KEY = 'fleet-rate-limit-key-0123456789';
const skipReason = POSTGRES_TEST_URL === undefined ? POSTGRES_SKIP_REASON : REDIS_TEST_URL === undefined ? REDIS_SKIP_REASON : undefined;

describeUnless(skipReason, 'one rate limit for two server instances on one PostgreSQL database and one Redis', () => {
  let schema: TestSchema;
  let prefix: string;
  let instances: ServerProcess[] = [];
  beforeEach(async () => {
    schema = await createTestSchema();
    prefix = testKeyPrefix();
  });
  afterEach(async () => {
    for (const instance of instances) await stopIfRunning(instance);
    instances = [];
    await schema.drop();
    await deleteKeysUnder(prefix);
  });

  it('answers twenty requests of one key, alternating between the instances, with exactly ten 200s then ten 429s with Retry-After', async function () {
    this.timeout(timeoutForProcesses(2));
    const env = {
      PETSTORE_DB: schema.url,
      PETSTORE_PG_POOL_SIZE: '2',
      PETSTORE_API_KEYS: KEY,
      PETSTORE_RATE_LIMIT: '10/60',
      PETSTORE_REDIS_URL: REDIS_TEST_URL!,
      PETSTORE_REDIS_PREFIX: prefix,
    };
    instances = [spawnServer(env), spawnServer(env)];
    const apis = await Promise.all(instances.map(async (instance) => clientFor(new URL(await baseUrlOf(instance)).origin, KEY)));

    const answers = [];
    for (let i = 0; i < 20; i += 1) answers.push(await apis[i % 2]!.get('/v1/pets'));
    expect(answers.map((res) => res.status)).to.deep.equal([...Array(10).fill(200), ...Array(10).fill(429)]);
    answers
      .slice(0, 10)
      .forEach((res, i) => expect(res.headers['ratelimit'], `answer ${i + 1}`).to.match(new RegExp(`^"per-key";r=${9 - i};t=\\d+$`)));
    for (const refused of answers.slice(10)) {
      expect(refused.json.code).to.equal('rate_limited');
      expect(Number(refused.headers['retry-after'])).to.be.within(1, 60);
    }
    // Each instance says at start which Redis it shares its counts through.
    for (const instance of instances) expect(instance.output()).to.contain(`"redis":"redis ${REDIS_TEST_URL}`);
    // A clean stop closes the Redis client with the rest.
    for (const instance of instances) {
      instance.child.kill('SIGTERM');
      expect(await instance.exited).to.equal(0);
    }
  });
});
