// Per-key rate limiting with rate-limiter-flexible (in this process's memory), answered with
// the fields of the IETF draft "RateLimit header fields for HTTP" (RateLimit-Policy, RateLimit)
// and, past the limit, 429 with Retry-After. Runs after authentication: the key is the caller.
import type { Middleware } from 'koa';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Caller } from '../../domain/index.js';
import { apiError } from './error-catalogue.js';
import { sendError } from './send-error.js';

/** A per-key rate limit: so many requests per window of so many seconds. */
export interface RateLimit {
  /** Requests allowed per window and caller. */
  readonly requests: number;
  readonly windowSeconds: number;
}

const POLICY = 'per-key';

export function rateLimitPerCaller(limit: RateLimit): Middleware {
  const limiter = new RateLimiterMemory({ points: limit.requests, duration: limit.windowSeconds });
  const policy = `"${POLICY}";q=${limit.requests};w=${limit.windowSeconds}`;
  const fields = (state: RateLimiterRes) => ({
    'RateLimit-Policy': policy,
    RateLimit: `"${POLICY}";r=${state.remainingPoints};t=${Math.ceil(state.msBeforeNext / 1000)}`,
  });
  return async function rateLimitPerCaller(ctx, next) {
    const caller = ctx.state['caller'] as Caller;
    let state: RateLimiterRes;
    try {
      state = await limiter.consume(caller.id);
    } catch (refused) {
      if (!(refused instanceof RateLimiterRes)) throw refused;
      const retryAfter = Math.max(1, Math.ceil(refused.msBeforeNext / 1000));
      return sendError(
        ctx,
        apiError('rate_limited', `Too many requests: at most ${limit.requests} every ${limit.windowSeconds} s per API key`, {
          headers: { ...fields(refused), 'Retry-After': String(retryAfter) },
        }),
      );
    }
    ctx.set(fields(state));
    await next();
  };
}
