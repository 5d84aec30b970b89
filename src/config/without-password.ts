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
