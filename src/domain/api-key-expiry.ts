// When a new stored key expires: after a lifetime, or at a time, within bounds that catch a
// slip of the finger (a key that expires as it is made, or in a thousand years).

const MINUTE_MS = 60_000;
/** The shortest life a key may be given: a minute. */
export const MIN_API_KEY_LIFETIME_MS = MINUTE_MS;
/** The longest life a key may be given: 3,650 days (ten years). */
export const MAX_API_KEY_LIFETIME_MS = 3650 * 24 * 60 * MINUTE_MS;

/** When a new key expires: `after` a lifetime from its creation, or `at` a time. */
export type ApiKeyExpiry = { readonly after: number } | { readonly at: Date };

/** The time a key created at `now` with `expiry` expires at. */
export const expiresAtOf = (expiry: ApiKeyExpiry, now: Date): Date =>
  'at' in expiry ? new Date(expiry.at) : new Date(now.getTime() + expiry.after);

/** Why a key created at `now` cannot be given `expiry`, or undefined when it can. */
export function apiKeyExpiryProblem(expiry: ApiKeyExpiry, now: Date): string | undefined {
  const lifetime = expiresAtOf(expiry, now).getTime() - now.getTime();
  if (Number.isNaN(lifetime)) return 'must be a time';
  if (lifetime < MIN_API_KEY_LIFETIME_MS) return 'must be at least a minute from now';
  if (lifetime > MAX_API_KEY_LIFETIME_MS) return 'must be at most 3650 days from now';
  return undefined;
}
