// What the JWT adapter is told: who issues the tokens, for which audience, where the keys are,
// and the times it keeps to. The composition root gives it these from the configuration.

/** The identity provider whose access tokens the service accepts. */
export interface JwtSettings {
  /** The `iss` every token must carry, exactly; also where the keys are found (OpenID discovery). */
  readonly issuer: string;
  /** The `aud` every token must carry (one of its values when it has several): the API's identifier. */
  readonly audience: string;
  /** The JWKS's URL; without it, the `jwks_uri` of `<issuer>/.well-known/openid-configuration`. */
  readonly jwksUrl?: string;
}

/** The times of the adapter, in milliseconds (but the clock skew, in seconds). */
export interface JwtTimings {
  /** How far `exp` and `nbf` may be off the service's clock. */
  readonly clockSkewSeconds: number;
  /** The longest wait for the discovery document or the JWKS. */
  readonly fetchTimeoutMs: number;
  /** After a fetch of the keys, how long an unknown `kid` is refused without fetching them again. */
  readonly keyRefetchCooldownMs: number;
  /** How long fetched keys are used before they are fetched again. */
  readonly keyMaxAgeMs: number;
  /** After a failed discovery, how long requests are answered "unavailable" without asking again. */
  readonly discoveryRetryMs: number;
  /** How long a verified token is taken without verifying it again (never past its `exp`). */
  readonly verifiedTokenLifetimeMs: number;
  /** How many verified tokens are kept at most. */
  readonly verifiedTokenLimit: number;
}

/** The service's timings: docs/configuration.md ("JWT access tokens") documents each. */
export const JWT_TIMINGS: JwtTimings = {
  clockSkewSeconds: 30,
  fetchTimeoutMs: 3000,
  keyRefetchCooldownMs: 5000,
  keyMaxAgeMs: 10 * 60 * 1000,
  discoveryRetryMs: 5000,
  verifiedTokenLifetimeMs: 60 * 1000,
  verifiedTokenLimit: 10_000,
};

/** The algorithms a token may be signed with (RFC 9068 §4: asymmetric only; never `none` nor HS*). */
export const JWT_ALGORITHMS = ['RS256', 'ES256', 'EdDSA'] as const;
