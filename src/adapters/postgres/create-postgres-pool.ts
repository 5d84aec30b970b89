// The pg connection pool the PostgreSQL adapters share, with the timeouts that turn an
// unreachable or stalled server into a prompt failure instead of a hung request.
import pg from 'pg';
import { migratePostgres } from './migrations.js';

/** Where PostgreSQL is, how many connections to open, and the timeouts that bound an outage. */
export interface PostgresPoolOptions {
  /** A postgres:// or postgresql:// URL (libpq-style query parameters such as `options` are honoured). */
  readonly url: string;
  /** The most connections the pool opens to the server. */
  readonly poolSize: number;
  /** How long to wait for a connection, new or from the pool (default 2000 ms). */
  readonly connectionTimeoutMs?: number;
  /** How long the server lets one statement run before it cancels it (default 5000 ms). */
  readonly statementTimeoutMs?: number;
  /**
   * How long the driver waits for the answer to a query (default: statement timeout + 1000 ms).
   * It catches what the server cannot: a connection that went silent (a cut network, a dead host).
   */
  readonly queryTimeoutMs?: number;
  /** An idle connection is closed after this long (default 30 000 ms). */
  readonly idleTimeoutMs?: number;
}

/** The pool's timeouts when {@link PostgresPoolOptions} leaves them out. */
export const POSTGRES_POOL_DEFAULTS = {
  connectionTimeoutMs: 2000,
  statementTimeoutMs: 5000,
  idleTimeoutMs: 30_000,
} as const;

/**
 * A pool that opens connections lazily. `onIdleError` hears of connections that broke while
 * idle (the server restarted, the network was cut): pg emits those as 'error' events, which
 * would end the process if nothing listened. The pool has already dropped such a connection.
 */
export function createPostgresPool(options: PostgresPoolOptions, onIdleError: (err: Error) => void = () => {}): pg.Pool {
  const statementTimeoutMs = options.statementTimeoutMs ?? POSTGRES_POOL_DEFAULTS.statementTimeoutMs;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? POSTGRES_POOL_DEFAULTS.connectionTimeoutMs,
    idleTimeoutMillis: options.idleTimeoutMs ?? POSTGRES_POOL_DEFAULTS.idleTimeoutMs,
    statement_timeout: statementTimeoutMs,
    query_timeout: options.queryTimeoutMs ?? statementTimeoutMs + 1000,
    application_name: 'petstore',
    // TCP keep-alive lets the kernel notice a dead peer of an idle connection.
    keepAlive: true,
  });
  pool.on('error', onIdleError);
  return pool;
}

/** A pool whose schema has been brought up to date (see migratePostgres); the pool is closed if that fails. */
export async function openPostgresPool(options: PostgresPoolOptions, onIdleError?: (err: Error) => void): Promise<pg.Pool> {
  const pool = createPostgresPool(options, onIdleError);
  try {
    await migratePostgres(pool);
    return pool;
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw err;
  }
}
