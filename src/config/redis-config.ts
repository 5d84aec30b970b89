// Redis, where the rate limits keep counts that several instances share: the text of its URL
// (PETSTORE_REDIS_URL, createPetStore's `redis`) and the prefix of its keys, checked here
// alone. The URL may carry a password: no message repeats it, and no description shows it.
import * as E from 'fp-ts/lib/Either.js';
import { hasAtAfterAuthority, withoutPassword } from './without-password.js';

/** The prefix of every key the service writes in Redis when none is given. */
export const DEFAULT_REDIS_KEY_PREFIX = 'petstore';

const REDIS_SCHEMES = ['redis:', 'rediss:'];

/**
 * The URL `text` when it names a Redis server (`redis://`, or `rediss://` for TLS), or why it
 * does not, as the end of a sentence that begins with the setting's name, never repeating it.
 */
export function parseRedisUrl(text: string): E.Either<string, string> {
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(text)?.[0].toLowerCase();
  if (scheme === undefined || !REDIS_SCHEMES.includes(scheme)) return E.left('must be a redis:// or rediss:// URL');
  if (!URL.canParse(text) || new URL(text).hostname === '' || hasAtAfterAuthority(text)) {
    return E.left('is not a valid redis:// URL (percent-encode special characters in the user name and password)');
  }
  return E.right(text);
}

/** Why `prefix` cannot begin the service's Redis keys, or undefined when it can. */
export const redisKeyPrefixProblem = (prefix: string): string | undefined =>
  /^[A-Za-z0-9._:-]{1,64}$/.test(prefix) ? undefined : 'must be 1 to 64 letters, digits or . _ : -';

/** Redis as it may be shown in a log line: its URL without a password, and the prefix of its keys. */
export const describeRedis = (url: string, keyPrefix: string): string => `redis ${withoutPassword(url)} (keys ${keyPrefix}:…)`;
