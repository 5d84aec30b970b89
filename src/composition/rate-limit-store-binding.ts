// Where the rate limits keep their counts: bound to nothing (each process counts alone), or to
// Redis, whose client the container owns when it was given a URL: opened when the app is first
// resolved, disconnected when the container closes, so that a stopped process has no handle left.
import type { Container } from 'inversify';
import type { Redis } from 'ioredis';
import { MemoryRateLimitStore } from '../adapters/memory/memory-rate-limit-store.js';
import type { RedisConnectionEvents } from '../adapters/redis/redis-client.js';
import type { RateLimitStore } from '../domain/index.js';
import type { ContainerOptions } from './container-options.js';
import { describeFault } from '../domain/fault-description.js';
import { describeRedis } from '../config/redis-config.js';
import { TOKENS } from './tokens.js';

/** Redis as a log line names it: its URL without a password, or the host of a client given as it is. */
const describeConnection = (connection: string | Redis, keyPrefix: string): string =>
  typeof connection === 'string'
    ? describeRedis(connection, keyPrefix)
    : `redis ${connection.options.host}:${connection.options.port} (keys ${keyPrefix}:…)`;

/** Binds TOKENS.RateLimitStore: in memory without `options.redis` or without a rate limit to count there; in Redis otherwise. */
export function bindRateLimitStore(container: Container, { redis, logger, http = {} }: ContainerOptions): void {
  if (redis === undefined || (http.rateLimit === undefined && http.authFailureLimit === undefined)) {
    container.bind<RateLimitStore>(TOKENS.RateLimitStore).toConstantValue(new MemoryRateLimitStore());
    return;
  }
  const { connection, keyPrefix } = redis;
  const described = describeConnection(connection, keyPrefix);
  // Once per outage, not per request: every request of an outage falls back (see the metric).
  const events: RedisConnectionEvents = {
    lost: (fault) =>
      logger.error(
        { redis: described, fault: describeFault(fault) },
        'Redis unreachable: each process applies the rate limits alone until it answers',
      ),
    restored: () => logger.info({ redis: described }, 'Redis answers again: the rate limits are shared again'),
  };
  let close = (): void => {};
  container
    .bind<RateLimitStore>(TOKENS.RateLimitStore)
    .toResolvedValue(async () => {
      // Loaded only here, when Redis is used: merely loading ioredis 6 (its `class VerbatimString
      // extends String`) leaves String.prototype in V8's slow dictionary mode, and every string
      // method call of every request then looks its method up the slow way (docs/decisions/0011-redis-client-loaded-only-when-configured.md).
      const { openRedisClient, watchRedisConnection } = await import('../adapters/redis/redis-client.js');
      const { RedisRateLimitStore } = await import('../adapters/redis/redis-rate-limit-store.js');
      if (typeof connection !== 'string') {
        const unwatch = watchRedisConnection(connection, events);
        close = unwatch;
        return new RedisRateLimitStore(connection, keyPrefix);
      }
      const { client, unwatch } = await openRedisClient(connection, events);
      close = () => {
        unwatch();
        client.disconnect();
      };
      return new RedisRateLimitStore(client, keyPrefix);
    })
    .onDeactivation(() => close());
}
