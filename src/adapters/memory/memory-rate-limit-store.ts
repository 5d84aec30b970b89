// RateLimitStore in this process's memory (rate-limiter-flexible's RateLimiterMemory): each
// process counts alone, and a restart forgets every count. The counters of one policy and limit
// share their counts, as they do in a shared store: apps made on one store limit together.
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { RateLimit, RateLimitCounter, RateLimitStore } from '../../domain/index.js';
import { rateLimiterCounter } from '../shared/rate-limiter-counter.js';

/** Counts in memory: never fails, so it never decides alone. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly limiters = new Map<string, RateLimiterMemory>();

  counter(policy: string, limit: RateLimit): RateLimitCounter {
    const name = `${policy}\u0000${limit.requests}/${limit.windowSeconds}`;
    let limiter = this.limiters.get(name);
    if (limiter === undefined) {
      limiter = new RateLimiterMemory({ points: limit.requests, duration: limit.windowSeconds });
      this.limiters.set(name, limiter);
    }
    return rateLimiterCounter(limiter);
  }
}
