// Proof, in a race test on PostgreSQL, that a statement waited for a transaction the test holds
// open: PostgreSQL's own record of who blocks whom (pg_blocking_pids), not a timing.
import { expect } from 'chai';
import type pg from 'pg';

/** Resolves once a query of `pool` waits for a lock that the transaction held open on `held` holds. */
export async function someoneWaitsFor(held: pg.Client, pool: pg.Pool): Promise<void> {
  const { rows: pid } = await held.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  for (let tries = 0; tries < 500; tries += 1) {
    const { rows } = await pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1::int = ANY (pg_blocking_pids(pid))',
      [pid[0]!.pid],
    );
    if (rows[0]!.n >= 1) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect.fail('no statement waited for the transaction held open');
}
