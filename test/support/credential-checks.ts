// The checks a CredentialVerifier answers, as tests expect them.
import { ALL_SCOPES, type CredentialCheck, type Scope } from '../../src/domain/index.js';

/** The check that accepts the caller `id`, holding `scopes` (every scope unless named). */
export const acceptedAs = (id: string, scopes: ReadonlySet<Scope> = ALL_SCOPES): CredentialCheck => ({
  kind: 'accepted',
  caller: { id, scopes },
});

/** The check of a credential the verifier does not know. */
export const UNKNOWN: CredentialCheck = { kind: 'unknown' };
