// What an API key may look like: the token68 / b64token syntax of a bearer credential
// (RFC 6750 §2.1), long enough to resist guessing.
import { randomBytes } from 'node:crypto';

export const API_KEY_PATTERN = /^[A-Za-z0-9\-._~+/]+=*$/;
export const MIN_API_KEY_LENGTH = 16;

/** Why `key` cannot be an API key, or undefined when it can. */
export function apiKeyProblem(key: string): string | undefined {
  if (!API_KEY_PATTERN.test(key)) return 'may contain only letters, digits and - . _ ~ + / (then = padding)';
  if (key.length < MIN_API_KEY_LENGTH) return `must be at least ${MIN_API_KEY_LENGTH} characters long`;
  return undefined;
}

/** A fresh random key: 32 bytes (256 bits) in base64url, 43 characters. */
export const generateApiKey = (): string => randomBytes(32).toString('base64url');
