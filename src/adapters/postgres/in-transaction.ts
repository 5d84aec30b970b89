// One transaction on a connection of its own, as the migrations and the archive's batches take
// it: a failure rolls back, reaches the caller classified (an outage as StorageUnavailableError),
// and the connection is dropped rather than handed back to the pool in an unknown state.
import type { Pool, PoolClient } from 'pg';
import { classifyPostgresError } from './postgres-errors.js';

/** What a unit of work answers: its result, and whether to roll back rather than commit. */
export interface TransactionOutcome<T> {
  readonly result: T;
  readonly rollback?: boolean;
}

/** Runs `work` between `begin` (by default BEGIN) and COMMIT, or ROLLBACK when it asks or throws. */
export async function inTransaction<T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<TransactionOutcome<T>>,
  begin: (client: PoolClient) => Promise<unknown> = (client) => client.query('BEGIN'),
): Promise<T> {
  let client: PoolClient;
  try {
    client = await pool.connect();
  } catch (err) {
    throw classifyPostgresError(err);
  }
  let failure: Error | undefined;
  try {
    await begin(client);
    const { result, rollback = false } = await work(client);
    await client.query(rollback ? 'ROLLBACK' : 'COMMIT');
    return result;
  } catch (err) {
    failure = err instanceof Error ? err : new Error(String(err));
    await client.query('ROLLBACK').catch(() => undefined);
    throw classifyPostgresError(err);
  } finally {
    client.release(failure);
  }
}
