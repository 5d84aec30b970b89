// The RateLimitStore contract, run against every adapter of the port: memory, and Redis (on
// the shared test server, under a key prefix of the test's own, deleted afterwards).
import { Redis } from 'ioredis';
import { MemoryRateLimitStore } from '../../src/adapters/memory/memory-rate-limit-store.js';
import { RedisRateLimitStore } from '../../src/adapters/redis/redis-rate-limit-store.js';
import { deleteKeysUnder, describeWithRedis, REDIS_TEST_URL, testKeyPrefix } from '../support/redis.js';
import { rateLimitStoreContract } from './rate-limit-store.contract.js';

rateLimitStoreContract('memory', () => Promise.resolve({ store: new MemoryRateLimitStore(), close: () => Promise.resolve() }));

describeWithRedis('on Redis', () => {
  rateLimitStoreContract('redis', async () => {
    const prefix = testKeyPrefix();
    const redis = new Redis(REDIS_TEST_URL!, { enableOfflineQueue: false, commandTimeout: 2000, lazyConnect: true });
    await redis.connect();
    return {
      store: new RedisRateLimitStore(redis, prefix),
      close: async () => {
        await deleteKeysUnder(prefix);
        redis.disconnect();
      },
    };
  });
});
