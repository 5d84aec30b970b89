// Where a rate limit keeps its counts: in this process's memory, or in Redis, where every
// instance using the same Redis and key prefix shares them. With Redis, rate-limiter-flexible's
// insuranceLimiter (a RateLimiterMemory of the same limit) decides whenever Redis cannot (not
// connected, or no answer in time): requests are still answered and limited, each process
// counting alone until Redis answers again.
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterRes } from 'rate-limiter-flexible';

/** Requests (or failed authentications) allowed per window of so many seconds. */
export interface RateLimit {
  /** Requests allowed per window and caller. */
  readonly requests: number;
  readonly windowSeconds: number;
}

/** Redis, holding the counts of the rate limits for every instance that names the same Redis and key prefix. */
export interface RateLimitStore {
  /**
   * A connected ioredis client. Made to fail fast, it keeps requests quick while Redis is away:
   * `enableOfflineQueue: false` and a `commandTimeout`, as the service's own client has.
   */
  readonly redis: Redis;
  /** Begins every key written, as `<keyPrefix>:rate-limit:<policy>:<caller or address>`, so that services can share one Redis. */
  readonly keyPrefix: string;
}

/** What the decisions of one rate limit are made by. */
export interface Limiter {
  /** Counts one request of `key`: resolves with the state after it, rejects with the state when the limit is reached. */
  consume(key: string): Promise<RateLimiterRes>;
  /** The state of `key` without counting, or null when it has no count in the current window. */
  get(key: string): Promise<RateLimiterRes | null>;
}

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

/**
 * The limiter of `policy`: in memory without a store; in the store otherwise, with a
 * per-process insurance of the same limit that calls `insured` for each decision it takes.
 */
export function createLimiter(policy: string, limit: RateLimit, store: RateLimitStore | undefined, insured: () => void): Limiter {
  const options = { points: limit.requests, duration: limit.windowSeconds };
  if (store === undefined) return new RateLimiterMemory(options);
  return new RateLimiterRedis({
    ...options,
    storeClient: store.redis,
    keyPrefix: `${store.keyPrefix}:rate-limit:${policy}`,
    // Not connected: straight to the insurance, rather than a command that can only fail.
    rejectIfRedisNotReady: true,
    insuranceLimiter: new InsuranceLimiter(limit, insured),
  });
}
