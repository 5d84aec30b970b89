// A RateLimitCounter over a rate-limiter-flexible limiter, whichever store it counts in: the
// library rejects a request past the limit with its state, which the port answers as a value.
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitCounter, RateLimitUse } from '../../domain/index.js';

const useOf = (state: RateLimiterRes): RateLimitUse => ({
  consumed: state.consumedPoints,
  remaining: state.remainingPoints,
  msBeforeReset: state.msBeforeNext,
});

/** The counter that `limiter` keeps. */
export const rateLimiterCounter = (limiter: RateLimiterAbstract): RateLimitCounter => ({
  async consume(key) {
    try {
      return { allowed: true, use: useOf(await limiter.consume(key)) };
    } catch (refused) {
      // Anything but a refusal (a store's fault the insurance did not take) is a fault.
      if (!(refused instanceof RateLimiterRes)) throw refused;
      return { allowed: false, use: useOf(refused) };
    }
  },
  async peek(key) {
    const state = await limiter.get(key);
    return state === null ? undefined : useOf(state);
  },
});
