// The database the service keeps its data in: as a value (DatabaseConfig), and as the text
// that names it, which PETSTORE_DB and createPetStore's `db` both take and read here alone.
// The text may be a URL with a password: no message repeats it, and no description shows it.
import * as E from 'fp-ts/lib/Either.js';
import { hasAtAfterAuthority, withoutPassword } from './without-password.js';

/** Where the service keeps its data: the memory adapters, a SQLite file (or `:memory:`), or PostgreSQL. */
export type DatabaseConfig =
  | { readonly kind: 'memory' }
  | { readonly kind: 'sqlite'; readonly path: string }
  /** `url` may hold a password: show it only through describeDatabase. */
  | { readonly kind: 'postgres'; readonly url: string; readonly poolSize: number };

/** Where the data is, before the size of a PostgreSQL pool is known. */
export type DatabaseLocation =
  { readonly kind: 'memory' } | { readonly kind: 'sqlite'; readonly path: string } | { readonly kind: 'postgres'; readonly url: string };

const POSTGRES_SCHEMES = ['postgres:', 'postgresql:'];

// The sslmode values the driver (pg-connection-string) knows; it takes any other, a typo
// included, as verify-full without a word.
const SSL_MODES = ['disable', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify'];

/**
 * Why `text` cannot name a database as it stands, whatever its kind: white space at either end,
 * which the SQLite driver drops, so the file it opens (and creates, with the umask's mode) is
 * not the one named, and `memory ` is a file.
 */
export const paddedNameProblem = (text: string): string | undefined =>
  text === text.trim() ? undefined : 'must not begin or end with white space (a space or line break left in by the quoting)';

/**
 * The database `text` names: `memory`, a SQLite path (`:memory:` included), or a postgres://
 * (postgresql://) URL; or why it names none, as the end of a sentence that begins with the
 * setting's name ("must be …"), never repeating the text.
 */
export function parseDatabase(text: string): E.Either<string, DatabaseLocation> {
  if (text === 'memory') return E.right({ kind: 'memory' });
  if (text.trim() === '') return E.left('must be "memory", ":memory:", the path of a SQLite file or a postgres:// URL');
  const padded = paddedNameProblem(text);
  if (padded !== undefined) return E.left(padded);
  // A mistyped URL (postgres:/… with one slash) would be taken for a file name, created, and shown in full, password included.
  if (/^[a-z][a-z0-9+.-]+:(?!\/\/)/i.test(text)) {
    return E.left(
      'looks like a URL but is not one (a postgres:// URL has two slashes; write a SQLite file whose name has a colon as ./name)',
    );
  }
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return E.right({ kind: 'sqlite', path: text });
  const scheme = text.slice(0, text.indexOf(':') + 1).toLowerCase();
  if (!POSTGRES_SCHEMES.includes(scheme)) {
    return E.left('must be "memory", ":memory:", a SQLite file path or a postgres:// (postgresql://) URL; other URLs are not supported');
  }
  if (!URL.canParse(text) || hasAtAfterAuthority(text)) {
    return E.left('is not a valid postgres:// URL (percent-encode special characters in the user name and password)');
  }
  const sslmode = new URL(text).searchParams.get('sslmode');
  if (sslmode !== null && !SSL_MODES.includes(sslmode)) return E.left(`has an sslmode that is not one of ${SSL_MODES.join(', ')}`);
  return E.right({ kind: 'postgres', url: text });
}

/** The database at `location`, with a pool of `poolSize` connections if it is PostgreSQL (the others have no pool). */
export const withPoolSize = (location: DatabaseLocation, poolSize: number): DatabaseConfig =>
  location.kind === 'postgres' ? { ...location, poolSize } : location;

/** Whether the data lives in this process's memory, and so is gone when it ends. */
export const isInProcessMemory = (location: DatabaseLocation): boolean =>
  location.kind === 'memory' || (location.kind === 'sqlite' && location.path === ':memory:');

/** The database as it may be shown in a log line or on a terminal: never with a password. */
export function describeDatabase(database: DatabaseConfig): string {
  switch (database.kind) {
    case 'memory':
      return 'memory (nothing is kept after exit)';
    case 'sqlite':
      return `sqlite ${database.path}`;
    case 'postgres':
      return `postgres ${withoutPassword(database.url)} (pool of ${database.poolSize})`;
  }
}
