// PostgreSQL for tests: the server named by PETSTORE_TEST_POSTGRES_URL, and a fresh schema per
// test so that no two tests (nor two test runs on one database) ever see each other's rows.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describeUnless } from './describe-unless.js';

const url = process.env['PETSTORE_TEST_POSTGRES_URL'];

/** The server's URL, or undefined when PostgreSQL tests are to be skipped. */
export const POSTGRES_TEST_URL: string | undefined = url === undefined || url === '' ? undefined : url;

export const POSTGRES_SKIP_REASON = 'PostgreSQL tests skipped: PETSTORE_TEST_POSTGRES_URL is not set';

/** A describe() whose tests need PostgreSQL: skipped, with the reason in its title, without PETSTORE_TEST_POSTGRES_URL. */
export function describeWithPostgres(title: string, body: () => void): void {
  describeUnless(POSTGRES_TEST_URL === undefined ? POSTGRES_SKIP_REASON : undefined, title, body);
}

function requireUrl(): string {
  if (POSTGRES_TEST_URL === undefined) throw new Error(POSTGRES_SKIP_REASON);
  return POSTGRES_TEST_URL;
}

/** `base` with its connections' search_path set to `schema` (as libpq's `options` parameter). */
export function urlWithSearchPath(base: string, schema: string): string {
  const parsed = new URL(base);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  return parsed.toString();
}

/** Runs one statement on a connection of its own. */
export async function adminQuery<R extends pg.QueryResultRow = pg.QueryResultRow>(
  text: string,
  values: unknown[] = [],
  connectTo = requireUrl(),
): Promise<R[]> {
  const client = new pg.Client({ connectionString: connectTo, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

export interface TestSchema {
  readonly name: string;
  /** The test server's URL, pointed at this schema. */
  readonly url: string;
  drop(): Promise<void>;
}

/** A new empty schema with a random name; drop() removes it with everything in it. */
export async function createTestSchema(): Promise<TestSchema> {
  const base = requireUrl();
  const name = `petstore_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE SCHEMA ${name}`);
  return {
    name,
    url: urlWithSearchPath(base, name),
    drop: async () => void (await adminQuery(`DROP SCHEMA IF EXISTS ${name} CASCADE`)),
  };
}
