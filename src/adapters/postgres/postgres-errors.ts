// Which failures of the pg driver mean "PostgreSQL cannot be reached right now" (a 503 that
// goes away by itself) rather than a fault of the service (a 500 that needs a fix).
import type { Pool, QueryConfig, QueryResultRow } from 'pg';
import { StorageUnavailableError } from '../../domain/index.js';

// Socket errors: the server is down, restarting, unreachable, or the connection was cut.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// SQLSTATEs of a server that is going away or cannot take the work now. Class 08 (connection
// exception) is matched as a whole below.
const SERVER_CODES = new Set([
  '57P01', // admin_shutdown: the server is stopping (or the backend was terminated)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: the server is starting or in recovery
  '57014', // query_canceled: statement_timeout was reached
  '53300', // too_many_connections
  '53400', // configuration_limit_exceeded
]);

// pg and pg-pool raise these without a code; their messages are all there is to go by.
const DRIVER_MESSAGES = [
  /^Connection terminated/, // unexpectedly, due to connection timeout, or while a query ran
  /^timeout exceeded when trying to connect$/, // no pooled connection within connectionTimeoutMillis
  /^Query read timeout$/, // query_timeout: no answer on an open connection
  /is not queryable$/, // a client that met a connection error
];

/** Whether `err` says PostgreSQL is unreachable or too slow, as opposed to a fault of the query or the service. */
export function isPostgresUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) {
    return true;
  }
  if (DRIVER_MESSAGES.some((pattern) => pattern.test(err.message))) return true;
  // Node reports a failed connect to every address of a host name as an AggregateError.
  if (err instanceof AggregateError && err.errors.some(isPostgresUnavailable)) return true;
  // pg-pool wraps a connect timeout around the socket error it caused.
  return err.cause !== undefined && err.cause !== err && isPostgresUnavailable(err.cause);
}

/** `err` as the adapter rethrows it: a StorageUnavailableError when PostgreSQL is unavailable, else unchanged. */
export function classifyPostgresError(err: unknown): unknown {
  if (err instanceof StorageUnavailableError || !isPostgresUnavailable(err)) return err;
  return new StorageUnavailableError(`PostgreSQL is unavailable: ${(err as Error).message}`, { cause: err });
}

/** The rows of one query on `pool`; a failure is classified (an outage becomes StorageUnavailableError). */
export async function queryRows<R extends QueryResultRow>(pool: Pool, query: QueryConfig): Promise<R[]> {
  try {
    return (await pool.query<R>(query)).rows;
  } catch (err) {
    throw classifyPostgresError(err);
  }
}
