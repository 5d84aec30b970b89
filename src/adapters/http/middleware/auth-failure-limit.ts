// The limit of failed authentications per client address: a request whose key is missing,
// malformed, repeated or unknown counts against the address it came from, so that a flood of
// bad keys is bounded; a request with a valid key never counts. An address that has used its
// budget is refused before its key is even checked, a valid key included, until its window
// ends: otherwise a right guess would still be told apart, and the limit would not slow guessing.
import type { Context, Middleware } from 'koa';
import type { RateLimit, RateLimitCounter } from '../../../domain/index.js';
import { rateLimitFields, sendRateLimited } from './rate-limit-fields.js';

/** The policy's name in the RateLimit fields, and in its Redis keys. */
export const AUTH_FAILURES_POLICY = 'auth-failures';

/**
 * The address of the connection's peer. `app.proxy` is never set, so X-Forwarded-For is not
 * read: a client could write any address there. An IPv4 client of a dual-stack socket
 * (`::ffff:192.0.2.1`) counts as its IPv4 address.
 */
const clientAddress = (ctx: Context): string => {
  const address = ctx.request.ip || 'unknown';
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice('::ffff:'.length) : address;
};

/** Runs before authenticate: refuses an address past its limit, and counts each refusal of authenticate. */
export function limitAuthFailures(limit: RateLimit, counter: RateLimitCounter): Middleware {
  return async function limitAuthFailures(ctx, next) {
    const address = clientAddress(ctx);
    const spent = await counter.peek(address);
    if (spent !== undefined && spent.consumed >= limit.requests) {
      const message = `Too many requests without a valid API key from this address: at most ${limit.requests} every ${limit.windowSeconds} s`;
      return sendRateLimited(ctx, AUTH_FAILURES_POLICY, limit, spent, message);
    }
    await next();
    // authenticate answers a refusal (401) itself, leaving no caller; a fault it throws, or a
    // credential that cannot be checked now (503), is not a refusal.
    if (ctx.state['caller'] !== undefined || ctx.response.status !== 401) return;
    // Concurrent failures of one address may go past the limit at once: each is answered 401 still.
    const { use } = await counter.consume(address);
    ctx.response.set(rateLimitFields(AUTH_FAILURES_POLICY, limit, use));
  };
}
