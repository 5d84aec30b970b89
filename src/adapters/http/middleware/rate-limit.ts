// The per-key rate limit: every request of an operation counts against its caller's budget,
// after authentication (the key is the caller), with the RateLimit fields on every answer.
import type { Middleware } from 'koa';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { Caller } from '../../../domain/index.js';
import { rateLimitFields, sendRateLimited } from './rate-limit-fields.js';
import type { Limiter, RateLimit } from './rate-limiter.js';

/** The policy's name in the RateLimit fields, and in its Redis keys. */
export const PER_KEY_POLICY = 'per-key';

export function rateLimitPerCaller(limit: RateLimit, limiter: Limiter): Middleware {
  return async function rateLimitPerCaller(ctx, next) {
    const caller = ctx.state['caller'] as Caller;
    let state: RateLimiterRes;
    try {
      state = await limiter.consume(caller.id);
    } catch (refused) {
      if (!(refused instanceof RateLimiterRes)) throw refused;
      const message = `Too many requests: at most ${limit.requests} every ${limit.windowSeconds} s per API key`;
      return sendRateLimited(ctx, PER_KEY_POLICY, limit, refused, message);
    }
    ctx.response.set(rateLimitFields(PER_KEY_POLICY, limit, state));
    await next();
  };
}
