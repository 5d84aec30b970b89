// RateLimitStore in Redis, where every instance using the same Redis and key prefix shares the
// counts. rate-limiter-flexible's insuranceLimiter (a RateLimiterMemory of the same limit)
// decides whenever Redis cannot (not connected, or no answer in time): requests are still
// answered and limited, each process counting alone until Redis answers again.
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimit, RateLimitCounter, RateLimitStore } from '../../domain/index.js';
import { rateLimiterCounter } from '../shared/rate-limiter-counter.js';

// The insurance of a shared limit, telling each time it decides in Redis's place.
class InsuranceLimiter extends RateLimiterMemory {
  constructor(
    limit: RateLimit,
    private readonly report: () => void,
  ) {
    super({ points: limit.requests, duration: limit.windowSeconds });
  }

  override consume(...args: Parameters<RateLimiterMemory['consume']>): Promise<RateLimiterRes> {
    this.report();
    return super.consume(...args);
  }

  override get(...args: Parameters<RateLimiterMemory['get']>): Promise<RateLimiterRes | null> {
    this.report();
    return super.get(...args);
  }
}

/** Counts in Redis, under `<keyPrefix>:rate-limit:<policy>:<key>`. */
export class RedisRateLimitStore implements RateLimitStore {
  /**
   * @param redis a connected ioredis client made to fail fast (`enableOfflineQueue: false` and
   * a `commandTimeout`, as openRedisClient makes it), so that requests stay quick while Redis is away
   * @param keyPrefix begins every key written, so that services can share one Redis
   */
  constructor(
    readonly redis: Redis,
    readonly keyPrefix: string,
  ) {}

  counter(policy: string, limit: RateLimit, decidedAlone: () => void): RateLimitCounter {
    return rateLimiterCounter(
      new RateLimiterRedis({
        points: limit.requests,
        duration: limit.windowSeconds,
        storeClient: this.redis,
        keyPrefix: `${this.keyPrefix}:rate-limit:${policy}`,
        // Not connected: straight to the insurance, rather than a command that can only fail.
        rejectIfRedisNotReady: true,
        insuranceLimiter: new InsuranceLimiter(limit, decidedAlone),
      }),
    );
  }
}
