// The values of the export format's lines that the interface has no codec for: times, texts,
// digests, counts, and the scopes of an API key.
import * as t from 'io-ts';
import { constrained } from '../domain/codec.js';
import { type ApiKeyScopes, canonicalScopes, isScope, SCOPES } from '../domain/index.js';

/** A UTC time to the millisecond, as `Date.prototype.toISOString` writes it. */
export const IsoTime = constrained<string, string>(
  'IsoTime',
  t.string,
  (text) =>
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(text) && !Number.isNaN(Date.parse(text))
      ? undefined
      : 'must be a UTC time as 2026-11-26T10:00:00.000Z',
  'must be a UTC time as 2026-11-26T10:00:00.000Z',
);

/** A text that is not empty. */
export const Text = constrained<string, string>(
  'Text',
  t.string,
  (text) => (text.length > 0 ? undefined : 'must not be empty'),
  'must be a string',
);

/** A SHA-256 digest in lower-case hex. */
export const Digest = constrained<string, string>(
  'Digest',
  t.string,
  (text) => (/^[0-9a-f]{64}$/.test(text) ? undefined : 'must be 64 lower-case hex digits'),
  'must be a string',
);

/** A number of things: an integer from 0 to 2^53−1. */
export const Count = constrained<number, number>(
  'Count',
  t.number,
  (n) => (Number.isSafeInteger(n) && n >= 0 ? undefined : `must be an integer between 0 and ${Number.MAX_SAFE_INTEGER}`),
  `must be an integer between 0 and ${Number.MAX_SAFE_INTEGER}`,
);

const SCOPES_PROBLEM = `must be "all" or a list of at least one of ${SCOPES.join(', ')}`;

/** The scopes of an API key: "all", or a list of at least one scope this release knows (in any order, read in canonical form). */
export const ScopesField = new t.Type<ApiKeyScopes, ApiKeyScopes, unknown>(
  'Scopes',
  (u): u is ApiKeyScopes =>
    u === 'all' || (Array.isArray(u) && u.length > 0 && u.every((name) => typeof name === 'string' && isScope(name))),
  (u, c) => {
    if (u === 'all') return t.success('all');
    const names: unknown[] = Array.isArray(u) ? u : [];
    const known = names.length > 0 && names.every((name) => typeof name === 'string' && isScope(name));
    return known ? t.success(canonicalScopes(names as string[])) : t.failure(u, c, SCOPES_PROBLEM);
  },
  (scopes) => scopes,
);
