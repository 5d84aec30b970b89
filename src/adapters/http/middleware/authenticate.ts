// Bearer authentication (RFC 6750) of every operation, done before the body is read.
import type { Middleware } from 'koa';
import type { CredentialVerifier } from '../../../domain/index.js';
import { apiError } from '../errors/error-catalogue.js';
import { sendError } from '../errors/send-error.js';
import { fieldLineCount } from '../request/field-lines.js';

export const AUTH_REALM = 'petstore';

// The scheme is case-insensitive (RFC 9110 §11.1); the credential is a b64token (RFC 6750 §2.1).
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

// RFC 6750 §3: error_description holds printable ASCII but for `"` and `\`.
const descriptionOf = (problem: string): string => problem.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '');

const challenge = (problem?: string): Record<string, string> => ({
  // RFC 6750 §3.1: a request without credentials gets no error code, a bad credential gets invalid_token.
  'WWW-Authenticate':
    problem === undefined
      ? `Bearer realm="${AUTH_REALM}"`
      : `Bearer realm="${AUTH_REALM}", error="invalid_token", error_description="${descriptionOf(problem)}"`,
});

const refuse = (message: string, problem?: string) => apiError('unauthorized', message, { headers: challenge(problem) });

/** How long a client should wait before retrying when its credential cannot be checked now. */
const UNAVAILABLE_RETRY_AFTER = { 'Retry-After': '5' };

/** Lets a request through only with a valid credential; the caller (its id and scopes) goes to `ctx.state.caller`. */
export const authenticate = (verifier: CredentialVerifier): Middleware =>
  async function authenticate(ctx, next) {
    // Node keeps the first of repeated Authorization lines: which key counted would depend on their order.
    if (fieldLineCount(ctx.req, 'authorization') > 1) {
      sendError(ctx, refuse('Send one Authorization header: the request has more than one', 'more than one credential'));
      return;
    }
    const header = ctx.request.get('Authorization');
    if (header === '') {
      sendError(ctx, refuse('An API key is required: send it as "Authorization: Bearer <key>"'));
      return;
    }
    const credential = BEARER.exec(header)?.[1];
    if (credential === undefined) {
      sendError(ctx, refuse('The Authorization header must have the form "Bearer <key>"', 'malformed credential'));
      return;
    }
    const check = await verifier.verify(credential);
    switch (check.kind) {
      case 'accepted':
        ctx.state['caller'] = check.caller;
        await next();
        return;
      case 'unknown':
        return sendError(ctx, refuse('The API key is not valid', 'unknown API key'));
      case 'refused':
        return sendError(ctx, refuse(`The credential is not valid: ${check.reason}`, check.reason));
      case 'unavailable':
        return sendError(
          ctx,
          apiError('service_unavailable', `The credential cannot be checked right now (${check.reason}); retry shortly`, {
            headers: UNAVAILABLE_RETRY_AFTER,
          }),
        );
    }
  };
