// What a verified access token says of its caller: who (from `iss` and `sub`) and what it may do
// (its scopes, RFC 9068 §2.2.3: `scope`, or the `scp` some providers write instead).
import type { JWTPayload } from 'jose';
import { isScope, type Scope } from '../../domain/index.js';
import { sha256Hex } from '../shared/sha256.js';

/**
 * The caller id of the subject `sub` of issuer `iss`: `jwt-` and the first 16 hex digits of the
 * SHA-256 of `iss`, a NUL and `sub`. Bounded in length whatever the claims are, the same for
 * every token of that subject (so it scopes Idempotency-Keys across tokens), and never the
 * token. An operator computes it with `printf '%s\0%s' "$ISS" "$SUB" | sha256sum | cut -c1-16`.
 */
export const tokenCallerId = (iss: string, sub: string): string => `jwt-${sha256Hex(`${iss}\u0000${sub}`).slice(0, 16)}`;

/** The names a claim's value holds: space-separated in a string, or the strings of an array. */
const namesIn = (value: unknown): readonly string[] => {
  if (typeof value === 'string') return value.split(' ');
  if (Array.isArray(value)) return value.filter((name): name is string => typeof name === 'string');
  return [];
};

/** The scopes of `scope` and `scp` together; names the service does not know are left out. */
export const tokenScopes = (payload: JWTPayload): ReadonlySet<Scope> =>
  new Set([...namesIn(payload['scope']), ...namesIn(payload['scp'])].filter(isScope));
