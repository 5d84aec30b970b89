// The issuer's signing keys, as jose's remote key set keeps them: fetched at the first token,
// used for `keyMaxAgeMs`, fetched again when a token names a `kid` they lack (at most once per
// `keyRefetchCooldownMs`). Its URL is configured, or found once by OpenID discovery.
import { createRemoteJWKSet, errors, type JWTVerifyGetKey } from 'jose';
import type { Clock } from '../../domain/index.js';
import type { JwtSettings, JwtTimings } from './jwt-settings.js';
import { KeySetUnavailable } from './key-set-unavailable.js';
import { discoverJwksUrl } from './openid-discovery.js';

type RemoteKeySet = ReturnType<typeof createRemoteJWKSet>;

/** Why fetching the keys failed, as a KeySetUnavailable; a token's own fault is not one. */
function unavailable(fault: unknown): KeySetUnavailable {
  if (fault instanceof KeySetUnavailable) return fault;
  if (fault instanceof errors.JWKSTimeout) return new KeySetUnavailable('the key set timed out', { cause: fault });
  if (fault instanceof errors.JWKSInvalid) return new KeySetUnavailable('the key set is malformed', { cause: fault });
  if (fault instanceof errors.JWKInvalid || fault instanceof errors.JOSENotSupported) {
    return new KeySetUnavailable('a key of the key set is unusable', { cause: fault });
  }
  if (fault instanceof errors.JOSEError) return new KeySetUnavailable('the key set did not answer 200 with JSON', { cause: fault });
  return new KeySetUnavailable('the key set is unreachable', { cause: fault });
}

/** The keys of one issuer, for jwtVerify; every failure to get them is a KeySetUnavailable. */
export class IssuerKeySet {
  private remote: RemoteKeySet | undefined;
  private discovery: Promise<RemoteKeySet> | undefined;
  private lastFailure: { readonly at: number; readonly fault: KeySetUnavailable } | undefined;

  constructor(
    private readonly settings: JwtSettings,
    private readonly timings: JwtTimings,
    private readonly clock: Clock,
  ) {}

  /** The key a token's header names. Rejects with JWKSNoMatchingKey when there is none, or a KeySetUnavailable. */
  readonly resolve: JWTVerifyGetKey = async (header, token) => {
    const keys = await this.keySet();
    try {
      return await keys(header, token);
    } catch (fault) {
      if (fault instanceof errors.JWKSNoMatchingKey || fault instanceof errors.JWKSMultipleMatchingKeys) throw fault;
      throw unavailable(fault);
    }
  };

  /** Resolves once the keys have been fetched at least once (fetching them now if not); rejects with a KeySetUnavailable. */
  async fetchedOnce(): Promise<void> {
    const keys = await this.keySet();
    if (keys.jwks() !== undefined) return;
    await keys.reload().catch((fault: unknown) => {
      throw unavailable(fault);
    });
  }

  private keySet(): Promise<RemoteKeySet> {
    if (this.remote !== undefined) return Promise.resolve(this.remote);
    // A failed discovery is not asked again at once: each request would wait the whole timeout.
    const failure = this.lastFailure;
    if (failure !== undefined && this.clock.now().getTime() - failure.at < this.timings.discoveryRetryMs) {
      return Promise.reject(failure.fault);
    }
    this.discovery ??= this.discover().finally(() => {
      this.discovery = undefined;
    });
    return this.discovery;
  }

  private async discover(): Promise<RemoteKeySet> {
    try {
      const url =
        this.settings.jwksUrl === undefined
          ? await discoverJwksUrl(this.settings.issuer, this.timings.fetchTimeoutMs)
          : new URL(this.settings.jwksUrl);
      this.remote = createRemoteJWKSet(url, {
        timeoutDuration: this.timings.fetchTimeoutMs,
        cooldownDuration: this.timings.keyRefetchCooldownMs,
        cacheMaxAge: this.timings.keyMaxAgeMs,
      });
      this.lastFailure = undefined;
      return this.remote;
    } catch (fault) {
      const failure = unavailable(fault);
      this.lastFailure = { at: this.clock.now().getTime(), fault: failure };
      throw failure;
    }
  }
}
