// Authorization: each operation needs one scope, declared beside its route. Runs after
// authenticate and before anything reads the body, so a refused request reads and writes nothing.
import type { Middleware } from 'koa';
import type { Caller, Scope } from '../../../domain/index.js';
import { apiError } from '../errors/error-catalogue.js';
import { sendError } from '../errors/send-error.js';
import { AUTH_REALM } from './authenticate.js';

/** Lets a request through only when its caller holds `scope`; 403 insufficient_scope otherwise (RFC 6750 §3.1). */
export function requireScope(scope: Scope): Middleware {
  const refusal = apiError('insufficient_scope', `This operation needs the scope "${scope}", which the credential does not hold`, {
    headers: { 'WWW-Authenticate': `Bearer realm="${AUTH_REALM}", error="insufficient_scope", scope="${scope}"` },
  });
  return async function requireScope(ctx, next) {
    const caller = ctx.state['caller'] as Caller;
    if (!caller.scopes.has(scope)) return sendError(ctx, refusal);
    await next();
  };
}
