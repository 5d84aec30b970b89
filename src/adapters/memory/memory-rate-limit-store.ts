// RateLimitStore in this process's memory (rate-limiter-flexible's RateLimiterMemory): each
// process counts alone, and a restart forgets every count.
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { RateLimit, RateLimitCounter, RateLimitStore } from '../../domain/index.js';
import { rateLimiterCounter } from '../shared/rate-limiter-counter.js';

/** Counts in memory: never fails, so it never decides alone. */
export class MemoryRateLimitStore implements RateLimitStore {
  counter(_policy: string, limit: RateLimit): RateLimitCounter {
    return rateLimiterCounter(new RateLimiterMemory({ points: limit.requests, duration: limit.windowSeconds }));
  }
}
