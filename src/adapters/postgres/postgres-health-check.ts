// A cheap probe of the PostgreSQL server behind a pool, for readiness checks.
import type { Pool } from 'pg';
import { StorageUnavailableError } from '../../domain/index.js';
import { TimeLimitExceeded, withinTimeLimit } from '../shared/time-limit.js';
import { classifyPostgresError } from './postgres-errors.js';

/**
 * Resolves when the server answers `SELECT 1` within `timeoutMs` (a pooled connection
 * included); rejects with StorageUnavailableError otherwise. Never waits longer than that.
 */
export async function checkPostgres(pool: Pool, timeoutMs = 1000): Promise<void> {
  const answer = pool.query({ name: 'petstore_health_check', text: 'SELECT 1' }).catch((err: unknown) => {
    const classified = classifyPostgresError(err);
    throw classified instanceof StorageUnavailableError
      ? classified
      : new StorageUnavailableError(`PostgreSQL health check failed: ${(err as Error).message}`, { cause: err });
  });
  await withinTimeLimit(answer, timeoutMs, 'PostgreSQL').catch((fault: unknown) => {
    throw fault instanceof TimeLimitExceeded ? new StorageUnavailableError(`PostgreSQL did not answer within ${timeoutMs} ms`) : fault;
  });
}
