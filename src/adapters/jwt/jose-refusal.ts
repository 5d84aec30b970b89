// Why jose refused a token, as the short reason of a `refused` answer: it becomes the
// `error_description` of the 401 (RFC 6750 §3), so it is plain words, with no quote and no
// value of the token.
import { errors } from 'jose';

/** The reason for a jose refusal, or undefined when `fault` is not one (a fault of the service, not of the token). */
export function refusalReason(fault: unknown): string | undefined {
  if (fault instanceof errors.JWTExpired) return 'token expired';
  if (fault instanceof errors.JWTClaimValidationFailed) return claimReason(fault.claim, fault.reason);
  if (fault instanceof errors.JOSEAlgNotAllowed) return 'algorithm not allowed';
  if (fault instanceof errors.JWKSNoMatchingKey) return 'unknown key';
  if (fault instanceof errors.JWKSMultipleMatchingKeys) return 'ambiguous key';
  if (fault instanceof errors.JWSSignatureVerificationFailed) return 'bad signature';
  if (fault instanceof errors.JOSEError) return 'malformed token';
  return undefined;
}

function claimReason(claim: string, reason: string): string {
  if (reason === 'missing') return `no ${claim} claim`;
  switch (claim) {
    case 'nbf':
      return 'token not yet valid';
    case 'aud':
      return 'wrong audience';
    case 'iss':
      return 'wrong issuer';
    default:
      return `invalid ${claim} claim`;
  }
}
