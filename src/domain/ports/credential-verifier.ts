// Who is calling: the port the driving adapter asks about a presented credential (an API
// key, or an access token from an identity provider).
import type { Scope } from '../scopes.js';

/** Who is calling and what they may do; the id is safe to log (it is never the credential). */
export interface Caller {
  readonly id: string;
  /** The scopes the credential holds; an operation needing another one is refused (403). */
  readonly scopes: ReadonlySet<Scope>;
}

/**
 * What a verifier makes of a credential:
 * - `accepted`: valid, and whose it is;
 * - `unknown`: not a credential this verifier knows (another verifier may; 401 if none does);
 * - `refused`: one it knows, but not valid now (expired, badly signed), with a short reason
 *   safe to show (it goes to the 401's `error_description`);
 * - `unavailable`: it cannot tell now (its key source is unreachable): 503, never a wrong 401.
 */
export type CredentialCheck =
  | { readonly kind: 'accepted'; readonly caller: Caller }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'unavailable'; readonly reason: string };

/** Tells whose a presented credential is, and what it allows. */
export interface CredentialVerifier {
  verify(credential: string): Promise<CredentialCheck>;
}
