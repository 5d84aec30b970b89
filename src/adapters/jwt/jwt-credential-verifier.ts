// CredentialVerifier of JWT access tokens (RFC 9068) from one identity provider, verified with
// jose against the provider's published keys. A credential that is not a JWT is "unknown", so
// that API keys are asked for next; a JWT is then accepted, refused with a short reason, or,
// when the keys cannot be had, "unavailable" (503), never a wrong refusal.
import { decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import type { Clock, CredentialCheck, CredentialVerifier } from '../../domain/index.js';
import { IssuerKeySet } from './issuer-key-set.js';
import { refusalReason } from './jose-refusal.js';
import { JWT_ALGORITHMS, JWT_TIMINGS, type JwtSettings, type JwtTimings } from './jwt-settings.js';
import { KeySetUnavailable } from './key-set-unavailable.js';
import { tokenCallerId, tokenScopes } from './token-claims.js';
import { VerifiedTokens } from './verified-tokens.js';

type Accepted = Extract<CredentialCheck, { kind: 'accepted' }>;

// A JWS in compact form: three base64url segments, the last empty for an unsigned token (refused below).
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * The `typ` header values taken: RFC 9068's `at+jwt`, and also `JWT` or none, which Auth0, Entra
 * ID, Keycloak and Okta write on their access tokens. What RFC 9068's `typ` guards against (an
 * ID token taken as an access token) the audience check stops: an ID token's `aud` is a client
 * id, never the API's identifier (docs/security.md).
 */
const typAccepted = (typ: unknown): boolean =>
  typ === undefined || (typeof typ === 'string' && ['jwt', 'at+jwt', 'application/at+jwt'].includes(typ.toLowerCase()));

/** Whether `credential` is a JWS in compact form with a JSON object for header: any other is not a token. */
function isCompactJws(credential: string): boolean {
  if (!COMPACT_JWS.test(credential)) return false;
  try {
    decodeProtectedHeader(credential);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the signature is canonical base64url: its last character's unused bits are zero. A
 * decoder ignores them, so without this check several texts (differing in the last character)
 * would pass as the same token.
 */
const canonicalSignature = (credential: string): boolean => {
  const signature = credential.slice(credential.lastIndexOf('.') + 1);
  return Buffer.from(signature, 'base64url').toString('base64url') === signature;
};

const refused = (reason: string): CredentialCheck => ({ kind: 'refused', reason });

/** Accepts the access tokens of `settings.issuer` for `settings.audience`. */
export class JwtCredentialVerifier implements CredentialVerifier {
  private readonly keys: IssuerKeySet;
  private readonly verified: VerifiedTokens<Accepted>;

  constructor(
    private readonly settings: JwtSettings,
    private readonly clock: Clock,
    private readonly timings: JwtTimings = JWT_TIMINGS,
  ) {
    this.keys = new IssuerKeySet(settings, timings, clock);
    this.verified = new VerifiedTokens(timings.verifiedTokenLimit, timings.verifiedTokenLifetimeMs);
  }

  async verify(credential: string): Promise<CredentialCheck> {
    if (!COMPACT_JWS.test(credential)) return { kind: 'unknown' };
    const now = this.clock.now();
    const known = this.verified.get(credential, now.getTime());
    if (known !== undefined) return known;
    if (!isCompactJws(credential)) return { kind: 'unknown' };
    if (!canonicalSignature(credential)) return refused('bad signature');
    let payload: JWTPayload;
    let typ: unknown;
    try {
      ({
        payload,
        protectedHeader: { typ },
      } = await jwtVerify(credential, this.keys.resolve, {
        algorithms: [...JWT_ALGORITHMS],
        issuer: this.settings.issuer,
        audience: this.settings.audience,
        requiredClaims: ['exp', 'sub'],
        clockTolerance: this.timings.clockSkewSeconds,
        currentDate: now,
      }));
    } catch (fault) {
      if (fault instanceof KeySetUnavailable) return { kind: 'unavailable', reason: fault.reason };
      const reason = refusalReason(fault);
      if (reason === undefined) throw fault;
      return refused(reason);
    }
    if (!typAccepted(typ)) return refused('not an access token');
    if (typeof payload.sub !== 'string' || payload.sub === '') return refused('invalid sub claim');
    const accepted: Accepted = {
      kind: 'accepted',
      caller: { id: tokenCallerId(this.settings.issuer, payload.sub), scopes: tokenScopes(payload) },
    };
    // jwtVerify required exp, a number.
    this.verified.set(credential, accepted, now.getTime(), payload.exp! * 1000);
    return accepted;
  }

  /** Resolves once the keys have been fetched at least once, fetching them if need be (readiness). */
  keysFetched(): Promise<void> {
    return this.keys.fetchedOnce();
  }
}
