// The per-key rate limit: every request of an operation counts against its caller's budget,
// after authentication (the key is the caller), with the RateLimit fields on every answer.
import type { Middleware } from 'koa';
import type { Caller, RateLimit, RateLimitCounter } from '../../../domain/index.js';
import { rateLimitFields, sendRateLimited } from './rate-limit-fields.js';

/** The policy's name in the RateLimit fields, and in its Redis keys. */
export const PER_KEY_POLICY = 'per-key';

export function rateLimitPerCaller(limit: RateLimit, counter: RateLimitCounter): Middleware {
  return async function rateLimitPerCaller(ctx, next) {
    const caller = ctx.state['caller'] as Caller;
    const { allowed, use } = await counter.consume(caller.id);
    if (!allowed) {
      const message = `Too many requests: at most ${limit.requests} every ${limit.windowSeconds} s per API key`;
      return sendRateLimited(ctx, PER_KEY_POLICY, limit, use, message);
    }
    ctx.response.set(rateLimitFields(PER_KEY_POLICY, limit, use));
    await next();
  };
}
