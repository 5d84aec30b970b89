// The databases of a PostgreSQL run (--db): one seeded with the project's own migrations, then a
// copy of it for each server (CREATE DATABASE … TEMPLATE, a file-level copy: the same rows, the
// same identity sequence), so that the creates of one server never reach another's data and
// pg_stat_activity can be read per server by database name. All are dropped at the end.
import pg from 'pg';

type MigratePostgres = typeof import('../../src/adapters/postgres/migrations.js').migratePostgres;
type ConfigDefaults = typeof import('../../src/config/config.js').CONFIG_DEFAULTS;

const ROOT = new URL('../../', import.meta.url);
/** The compiled migratePostgres of the project built in `root` (this checkout by default). */
const compiledMigrations = (root: URL) => new URL('dist/adapters/postgres/migrations.js', root);
const CONFIG = new URL('../../dist/config/config.js', import.meta.url);

/** The project's default pool size (PETSTORE_PG_POOL_SIZE), which the PostgreSQL baseline's one pool takes too. */
export const projectDefaultPoolSize = async (): Promise<number> =>
  ((await import(CONFIG.href)) as { CONFIG_DEFAULTS: ConfigDefaults }).CONFIG_DEFAULTS.PETSTORE_PG_POOL_SIZE;

/** `url` naming `database` instead, its other parts (user, host, query parameters) kept. */
export function databaseUrl(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

/** The URL as it may be shown: never with its password. */
export function shownUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
}

const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Runs `statements` on one connection to `url`, then closes it; answers the rows of the last. */
async function run(url: string, ...statements: string[]): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url, application_name: 'petstore-bench' });
  await client.connect();
  try {
    let rows: Record<string, unknown>[] = [];
    for (const statement of statements) rows = (await client.query(statement)).rows as Record<string, unknown>[];
    return rows;
  } finally {
    await client.end();
  }
}

/** Pets 1..count as bench/databases/seed.ts seeds SQLite (same names, categories and statuses), in one statement. */
const SEED_SQL = (count: number): string => `INSERT INTO pets (name, category_id, status)
  SELECT (ARRAY['Rex','Tom','Felix','Bella','Luna','Max','Milo','Coco','Kiwi','Nala'])[i % 10 + 1] || ' ' || i,
         i % 50 + 1,
         (ARRAY['available','pending','sold'])[i % 3 + 1]
    FROM generate_series(1, ${count}) AS i ORDER BY i`;

export interface BenchDatabases {
  /** What the server is and how it commits, recorded beside the figures. */
  readonly server: Readonly<Record<string, string>>;
  /** A new database with the seeded pets for `server` (a name of ours: letters, digits, dashes); its URL. */
  copyFor(server: string): Promise<string>;
  /** Drops every database made here, whatever happened. */
  dropAll(): Promise<void>;
}

/**
 * Creates `bench_<run>_seed` on the server `url` names, migrates it with the project's
 * migratePostgres (from dist/; from another checkout's with --against, whose schema this one's
 * server then upgrades in place) and seeds `count` pets; answers the seconds it took with the handle.
 */
export async function seedPostgres(url: string, count: number, root = ROOT): Promise<{ seconds: number; databases: BenchDatabases }> {
  const run36 = `${Date.now().toString(36)}_${process.pid}`;
  const nameOf = (suffix: string): string => `bench_${run36}_${suffix.replace(/[^a-z0-9]/gi, '_')}`;
  const made: string[] = [];
  const create = async (name: string, template?: string): Promise<string> => {
    await run(url, `CREATE DATABASE ${quoted(name)}${template === undefined ? '' : ` TEMPLATE ${quoted(template)}`}`);
    made.push(name);
    return databaseUrl(url, name);
  };
  const databases: BenchDatabases = {
    server: {},
    copyFor: async (server) => create(nameOf(server), seed),
    dropAll: async () => {
      for (const name of made.splice(0).reverse()) await run(url, `DROP DATABASE IF EXISTS ${quoted(name)} WITH (FORCE)`);
    },
  };
  const seed = nameOf('seed');
  const started = performance.now();
  try {
    const seedUrl = await create(seed);
    const migratePostgres = ((await import(compiledMigrations(root).href)) as { migratePostgres: MigratePostgres }).migratePostgres;
    const pool = new pg.Pool({ connectionString: seedUrl, max: 1 });
    try {
      await migratePostgres(pool);
    } finally {
      await pool.end();
    }
    // VACUUM sets the visibility map, so both sides start with index-only scans possible and no pending autovacuum.
    const [max] = await run(seedUrl, SEED_SQL(count), 'VACUUM ANALYZE pets', 'SELECT max(id)::text AS max FROM pets');
    if (max?.['max'] !== String(count)) throw new Error(`seeded ids end at ${String(max?.['max'])}, not ${count}`);
    const [settings] = await run(
      seedUrl,
      `SELECT version() AS version, current_setting('synchronous_commit') AS "synchronousCommit",
              current_setting('commit_delay') AS "commitDelay", current_setting('fsync') AS fsync,
              current_setting('max_connections') AS "maxConnections"`,
    );
    Object.assign(databases.server, settings);
  } catch (err) {
    await databases.dropAll().catch(() => undefined);
    throw err;
  }
  return { seconds: (performance.now() - started) / 1000, databases };
}

/**
 * Until the returned function is called, a run stopped with Ctrl-C (or SIGTERM) still drops its
 * databases, which hold a copy of the seed each, on someone's server.
 */
export function dropOnInterrupt(databases: BenchDatabases): () => void {
  const interrupted = (): void => {
    setTimeout(() => process.exit(130), 10_000).unref();
    void databases.dropAll().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
  return () => void process.off('SIGINT', interrupted).off('SIGTERM', interrupted);
}
