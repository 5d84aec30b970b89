// What `petstore help` prints: every command and option of src/cli.ts, which docs/operations.md
// lists too (test/docs/cli-documented.test.ts holds the two together).

/** The usage text of the `petstore` command. */
export const USAGE = `Usage: petstore <command>

Commands:
  serve                            Start the HTTP server (what npm start runs).
  migrate                          Bring the database schema up to date, then exit.
  keys create [--label <text>] [--scope <scope>]… [--json]
              [--expires-in <n>d|h|m | --expires-at <time>]
                                   Create an API key. The key is printed this once; the
                                   database keeps only its SHA-256. Each --scope grants one
                                   scope (pets:read, pets:write, categories:read,
                                   categories:write, orders:read, orders:write,
                                   store:read); with none, the key holds
                                   every scope, those of later releases too. It expires
                                   after --expires-in (such as 90d) or at --expires-at (an
                                   ISO 8601 time with its offset), at most 3650 days ahead;
                                   without either, never.
  keys list [--json]               List the stored keys (never the keys themselves): scopes,
                                   created, expires, last used (to the minute), revoked.
  keys revoke <id>                 Revoke a stored key: refused from the next request on.
  webhooks add <url> [--events <type,…>] [--json]
                                   Register a webhook endpoint (http or https, no user or
                                   password in the URL) for the given event types (all when
                                   omitted: petstore.pet.* and petstore.category.*, each
                                   .created, .updated, .deleted). Its signing secret is
                                   printed this once.
  webhooks list [--json]           List the endpoints (never their secrets).
  webhooks remove <id>             Remove an endpoint and its deliveries.
  webhooks enable <id>             Make an endpoint disabled by a 410 Gone active again: it
                                   gets the events relayed from then on.
  webhooks deliveries <id> [--json]
                                   An endpoint's recent deliveries: event, type, status,
                                   attempts, last result and times.
  webhooks redeliver <event-id>    Send an event again to every active endpoint that had it.
  categories register-used         Register, as "Category <id>", every categoryId the pets use
                                   that no category has (before PETSTORE_CATEGORIES=registered).
  backup <file> [--quiet]          Copy the SQLite database, online, to <file> (checked with
                                   integrity_check). PostgreSQL: use pg_dump (exit 2).
  export [--out <file>] [--all] [--quiet]
                                   Write every pet, then every order, as NDJSON, in id
                                   order (standard output unless --out); --all adds
                                   categories (first), API keys (digests only) and
                                   idempotency records.
  import <file> [--quiet]          Read an export into the database, keeping ids. The file
                                   is checked first; importing it twice changes nothing.
  copy --from <database> --to <database> [--quiet]
                                   Copy everything from one database (SQLite file or
                                   postgres:// URL) to another, then compare both sides'
                                   counts and SHA-256; run it again after an interruption.
  help                             Show this text.

The configuration comes from the environment, as for the server: PETSTORE_DB (the SQLite
file or postgres:// URL whose keys and webhooks are managed, backed up, exported or imported),
PETSTORE_API_KEYS, PORT, HOST, … (see docs/configuration.md). Keys of PETSTORE_API_KEYS and
stored keys are all accepted. Long work shows its progress on standard error (a bar on a
terminal, a line every 5 s otherwise) unless --quiet.

Exit codes: 0 done; 1 failed (a bad line, a conflict, an unreachable database, copies that
differ); 2 misused (bad arguments, a file that is not an export, a backup of PostgreSQL).
`;
