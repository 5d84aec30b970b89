// Several verifiers as one: the configured keys, the stored keys, the identity provider's tokens.
import type { CredentialCheck, CredentialVerifier } from '../../domain/index.js';

/**
 * A verifier that asks `verifiers` in order and answers the first that knows the credential
 * (accepted, refused or unavailable); `unknown` only when none of them does.
 */
export const anyCredentialVerifier = (...verifiers: readonly CredentialVerifier[]): CredentialVerifier => ({
  async verify(credential) {
    for (const verifier of verifiers) {
      const check: CredentialCheck = await verifier.verify(credential);
      if (check.kind !== 'unknown') return check;
    }
    return { kind: 'unknown' };
  },
});
