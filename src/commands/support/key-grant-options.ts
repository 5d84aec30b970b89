// What `keys create` reads from --scope, --expires-in and --expires-at: the scopes and expiry
// of the new key, checked before the database is opened, each misuse told in one sentence.
import * as E from 'fp-ts/lib/Either.js';
import { type ApiKeyExpiry, apiKeyExpiryProblem, type ApiKeyScopes, canonicalScopes, isScope, SCOPES } from '../../domain/index.js';

const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000 } as const;
const DURATION = /^([1-9][0-9]{0,6})([dhm])$/;
// A date, a time to the minute at least, and its offset: a time without one would depend on the machine's zone.
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** The scopes `--scope` names: every scope when it is not given, else each named (once), which must be known. */
export function scopesOption(names: readonly string[] | undefined): E.Either<string, ApiKeyScopes> {
  if (names === undefined) return E.right('all');
  const unknown = names.find((name) => !isScope(name));
  return unknown === undefined
    ? E.right(canonicalScopes(names))
    : E.left(`petstore: --scope ${JSON.stringify(unknown)} is not a scope; the scopes are ${SCOPES.join(', ')}\n`);
}

/** The milliseconds of a duration such as 90d, 12h or 30m; undefined for any other text. */
export function durationMs(text: string): number | undefined {
  const match = DURATION.exec(text);
  return match === null ? undefined : Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/** The time an ISO 8601 text with its offset names, if it is a day of the calendar and a time of the day; else undefined. */
export function isoTime(text: string): Date | undefined {
  const match = ISO_TIME.exec(text);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? '0')) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const calendarDay = new Date(Date.UTC(year, month - 1, day));
  const valid = calendarDay.getUTCMonth() === month - 1 && calendarDay.getUTCDate() === day && hour < 24 && minute < 60 && second < 60;
  return valid ? new Date(text) : undefined;
}

/**
 * The expiry `--expires-in` or `--expires-at` asks for (undefined: never), checked against
 * `now`: between a minute and 3,650 days ahead; not both.
 */
export function expiryOption(
  expiresIn: string | undefined,
  expiresAt: string | undefined,
  now: Date,
): E.Either<string, ApiKeyExpiry | undefined> {
  if (expiresIn !== undefined && expiresAt !== undefined) return E.left('petstore: give --expires-in or --expires-at, not both\n');
  let expiry: ApiKeyExpiry;
  if (expiresIn !== undefined) {
    const after = durationMs(expiresIn);
    if (after === undefined) {
      return E.left(
        `petstore: --expires-in takes a number and a unit, d (days), h (hours) or m (minutes), such as 90d, not ${JSON.stringify(expiresIn)}\n`,
      );
    }
    expiry = { after };
  } else if (expiresAt !== undefined) {
    const at = isoTime(expiresAt);
    if (at === undefined) {
      return E.left(
        `petstore: --expires-at takes an ISO 8601 time with its offset, such as 2031-01-01T00:00:00Z, not ${JSON.stringify(expiresAt)}\n`,
      );
    }
    expiry = { at };
  } else {
    return E.right(undefined);
  }
  const problem = apiKeyExpiryProblem(expiry, now);
  const option = expiresIn === undefined ? `--expires-at ${expiresAt}` : `--expires-in ${expiresIn}`;
  return problem === undefined ? E.right(expiry) : E.left(`petstore: ${option}: the expiry ${problem}\n`);
}
