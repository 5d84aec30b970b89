// How often a statement read a whole table: the plan tests' measure that a plan a session kept
// still finds rows by index once the table has grown.
import type pg from 'pg';

/** The sequential scans of `table` that `work` makes on `session`, counted in a transaction of its own. */
export async function sequentialScansBy(session: pg.Client, table: string, work: () => Promise<unknown>): Promise<number> {
  await session.query('BEGIN');
  await work();
  const [stats] = (
    await session.query<{ seq_scan: string }>('SELECT seq_scan FROM pg_stat_xact_user_tables WHERE relid = $1::regclass', [table])
  ).rows;
  await session.query('COMMIT');
  return Number(stats?.seq_scan);
}
