// How a rate limit shows in answers: the fields of the IETF draft "RateLimit header fields for
// HTTP" (RateLimit-Policy, RateLimit), and past the limit 429 rate_limited with Retry-After.
import type { Context } from 'koa';
import type { RateLimit, RateLimitUse } from '../../../domain/index.js';
import { apiError } from '../errors/error-catalogue.js';
import { sendError } from '../errors/send-error.js';

const secondsOf = (ms: number): number => Math.ceil(ms / 1000);

/** The fields of one named policy of `limit`, as a key has used it. */
export function rateLimitFields(policy: string, limit: RateLimit, use: RateLimitUse): Record<string, string> {
  return {
    'RateLimit-Policy': `"${policy}";q=${limit.requests};w=${limit.windowSeconds}`,
    RateLimit: `"${policy}";r=${use.remaining};t=${secondsOf(use.msBeforeReset)}`,
  };
}

/** Answers 429 rate_limited: Retry-After (the seconds until the window ends, at least 1) and the policy's fields. */
export function sendRateLimited(ctx: Context, policy: string, limit: RateLimit, use: RateLimitUse, message: string): void {
  const retryAfter = Math.max(1, secondsOf(use.msBeforeReset));
  sendError(
    ctx,
    apiError('rate_limited', message, {
      headers: { ...rateLimitFields(policy, limit, use), 'Retry-After': String(retryAfter) },
    }),
  );
}
