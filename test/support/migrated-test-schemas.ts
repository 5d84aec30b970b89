// Migrated PostgreSQL schemas for tests that each want a fresh store, without paying for the
// migrations each time (about 200 ms of DDL here, and a schema's DROP as much again; the
// catalogs' dead rows they leave slow every later DDL while autovacuum is off, as on the CI
// machine). A schema a test is done with is emptied (DELETE, sequences back to their start, so
// ids start at 1 again: cheaper than TRUNCATE's new files on tables this small) and handed to the
// next test of this process, but only while its objects are still exactly those the migrations
// made; one a test altered is dropped instead. Every schema left is dropped when the process's
// tests end (root-hooks.ts).
import pg from 'pg';
import { migratePostgres } from '../../src/adapters/postgres/migrations.js';
import { createTestSchema, type TestSchema } from './postgres.js';

interface Pooled {
  readonly schema: TestSchema;
  /** The schema's objects as the migrations left them. */
  readonly shape: string;
  /** The statements that empty it. */
  readonly emptying: string;
}

const idle: Pooled[] = [];
const everyPooled = new Set<Pooled>();

/** The names and kinds of a schema's tables, indexes, sequences, functions and triggers, in one string. */
const SHAPE_SQL = `
  SELECT concat_ws(' | ',
    (SELECT string_agg(c.relname || ':' || c.relkind::text, ',' ORDER BY c.relname) FROM pg_class c WHERE c.relnamespace = n.oid),
    (SELECT string_agg(p.proname || ':' || md5(p.prosrc), ',' ORDER BY p.proname, md5(p.prosrc)) FROM pg_proc p WHERE p.pronamespace = n.oid),
    (SELECT string_agg(t.tgname || ':' || t.tgenabled::text, ',' ORDER BY t.tgname) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE c.relnamespace = n.oid)
  ) AS shape
  FROM pg_namespace n WHERE n.nspname = $1`;

async function withClient<T>(schema: TestSchema, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: schema.url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const shapeOf = (client: pg.Client, schema: TestSchema) =>
  client.query<{ shape: string }>(SHAPE_SQL, [schema.name]).then(({ rows }) => rows[0]!.shape);

/** The schema's tables but the migrations' record, quoted for SQL. */
const tablesOf = (client: pg.Client, schema: TestSchema) =>
  client
    .query<{ name: string }>(
      `SELECT format('%I', tablename) AS name FROM pg_tables
        WHERE schemaname = $1 AND tablename <> 'petstore_schema_migrations' ORDER BY tablename`,
      [schema.name],
    )
    .then(({ rows }) => rows.map((row) => row.name));

// The replica role fires no trigger (the inventory's counters would count the deletions) and no
// foreign key check, so the tables empty in any order. The test server's role is a superuser.
const emptyingOf = (tables: readonly string[]) =>
  `BEGIN; SET LOCAL session_replication_role = replica; ${tables.map((table) => `DELETE FROM ${table};`).join(' ')}
   SELECT setval(format('%I.%I', schemaname, sequencename), start_value, false) FROM pg_sequences WHERE schemaname = current_schema();
   COMMIT`;

async function newPooled(): Promise<Pooled> {
  const schema = await createTestSchema();
  try {
    const pool = new pg.Pool({ connectionString: schema.url, max: 1 });
    try {
      await migratePostgres(pool);
    } finally {
      await pool.end();
    }
    return await withClient(schema, async (client) => {
      // Emptying could not give back rows a migration wrote: a schema's migrations must write none.
      const tables = await tablesOf(client, schema);
      for (const table of tables) {
        const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
        if (rows[0]!.n !== 0) throw new Error(`the migrations wrote rows in ${table}: emptying would lose them`);
      }
      const pooled = { schema, shape: await shapeOf(client, schema), emptying: emptyingOf(tables) };
      everyPooled.add(pooled);
      return pooled;
    });
  } catch (fault) {
    await schema.drop();
    throw fault;
  }
}

/** Empties the schema for the next test when its objects are the migrations', or drops it. */
async function giveBack(pooled: Pooled): Promise<void> {
  const reusable = await withClient(pooled.schema, async (client) => {
    if ((await shapeOf(client, pooled.schema)) !== pooled.shape) return false;
    await client.query(pooled.emptying);
    return true;
  });
  if (reusable) idle.push(pooled);
  else await dropPooled(pooled);
}

async function dropPooled(pooled: Pooled): Promise<void> {
  everyPooled.delete(pooled);
  await pooled.schema.drop();
}

/**
 * A schema migrated to this release with nothing in it, as a new store has; its drop() readies
 * it for the next test of the process rather than dropping it.
 */
export async function migratedTestSchema(): Promise<TestSchema> {
  const pooled = idle.pop() ?? (await newPooled());
  return { name: pooled.schema.name, url: pooled.schema.url, drop: () => giveBack(pooled) };
}

/** Drops every schema migratedTestSchema made, idle or not. */
export async function dropMigratedTestSchemas(): Promise<void> {
  idle.length = 0;
  await Promise.all([...everyPooled].map(dropPooled));
}
