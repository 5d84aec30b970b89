// A URL as it may be shown in a log line or on a terminal: the database's and Redis's URLs may
// carry a password, and no description of them shows it.

/** `url` with its password removed (from the user-info part and from a `password` query parameter). */
export function withoutPassword(url: string): string {
  const parsed = new URL(url);
  parsed.password = '';
  // Only when present: touching searchParams re-encodes the whole query.
  if (parsed.searchParams.has('password')) parsed.searchParams.delete('password');
  return parsed.toString();
}

/**
 * Whether `url` holds an `@` after its authority. A password with an unencoded `/`, `?` or `#`
 * ends the authority early: the parser then takes the user name for the host and the rest of
 * the password for a path, query or fragment, where no password is looked for, and a
 * description of the URL would show it. Such a URL is refused, as one that does not parse.
 */
export function hasAtAfterAuthority(url: string): boolean {
  const { pathname, search, hash } = new URL(url);
  return `${pathname}${search}${hash}`.includes('@');
}
