// What the service makes and keeps of an API key: a fresh random key, its SHA-256 digest, and
// the caller id derived from it (node:crypto, hence here and not in the domain, which holds
// the key's syntax: apiKeyProblem).
import { randomBytes } from 'node:crypto';
import type { ApiKeyGenerator } from '../../domain/index.js';
import { sha256Bytes, sha256Hex } from '../shared/sha256.js';

/** A fresh random key: 32 bytes (256 bits) in base64url, 43 characters. */
export const generateApiKey = (): string => randomBytes(32).toString('base64url');

/**
 * The SHA-256 of a key, in lower-case hex: all the service keeps of a key. A fast hash is
 * enough because keys are long and random (256 bits for generated ones, at least 16
 * characters for configured ones), not passwords: no dictionary holds them, so a slow,
 * salted hash would add only cost to every request.
 */
export const apiKeyDigest = (key: string): string => sha256Hex(key);

/** The same digest as bytes, for comparing with timingSafeEqual (it runs on every request). */
export const apiKeyDigestBytes = (key: string): Buffer => sha256Bytes(key);

/** Keys of 256 random bits, digested with SHA-256: the ApiKeyGenerator of the service. */
export const cryptoApiKeyGenerator: ApiKeyGenerator = { generate: generateApiKey, digest: apiKeyDigest };
