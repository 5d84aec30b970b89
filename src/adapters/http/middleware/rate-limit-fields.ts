// How a rate limit shows in answers: the fields of the IETF draft "RateLimit header fields for
// HTTP" (RateLimit-Policy, RateLimit), and past the limit 429 rate_limited with Retry-After.
import type { Context } from 'koa';
import type { RateLimiterRes } from 'rate-limiter-flexible';
import { apiError } from '../errors/error-catalogue.js';
import type { RateLimit } from './rate-limiter.js';
import { sendError } from '../errors/send-error.js';

const secondsOf = (ms: number): number => Math.ceil(ms / 1000);

/** The fields of one named policy of `limit`, as they are in `state`. */
export function rateLimitFields(policy: string, limit: RateLimit, state: RateLimiterRes): Record<string, string> {
  return {
    'RateLimit-Policy': `"${policy}";q=${limit.requests};w=${limit.windowSeconds}`,
    RateLimit: `"${policy}";r=${state.remainingPoints};t=${secondsOf(state.msBeforeNext)}`,
  };
}

/** Answers 429 rate_limited: Retry-After (the seconds until the window ends, at least 1) and the policy's fields. */
export function sendRateLimited(ctx: Context, policy: string, limit: RateLimit, state: RateLimiterRes, message: string): void {
  const retryAfter = Math.max(1, secondsOf(state.msBeforeNext));
  sendError(
    ctx,
    apiError('rate_limited', message, {
      headers: { ...rateLimitFields(policy, limit, state), 'Retry-After': String(retryAfter) },
    }),
  );
}
