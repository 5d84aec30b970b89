// JWT access tokens, when the options name an identity provider: the verifier of its tokens,
// which the credential verifier asks after the configured keys, and what /readyz asks of it.
import type { Container } from 'inversify';
import { JwtCredentialVerifier } from '../adapters/jwt/jwt-credential-verifier.js';
import type { Clock, ReadinessCheck } from '../domain/index.js';
import type { ContainerOptions } from './container-options.js';
import { TOKENS } from './tokens.js';

/** Binds JwtVerifier (undefined without `options.jwt`) and CredentialsReadiness. */
export function bindJwt(container: Container, { jwt }: ContainerOptions): void {
  container
    .bind<JwtCredentialVerifier | undefined>(TOKENS.JwtVerifier)
    .toResolvedValue((clock: Clock) => (jwt === undefined ? undefined : new JwtCredentialVerifier(jwt, clock)), [TOKENS.Clock]);
  // Ready once the provider's keys were fetched once (fetched now if not): until then no token could be verified.
  container
    .bind<ReadinessCheck>(TOKENS.CredentialsReadiness)
    .toResolvedValue(
      (verifier: JwtCredentialVerifier | undefined) => (verifier === undefined ? async () => {} : () => verifier.keysFetched()),
      [TOKENS.JwtVerifier],
    );
}
