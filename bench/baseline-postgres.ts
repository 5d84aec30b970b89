// The PostgreSQL baseline's storage: ONE pg pool, named (prepared) statements as the project
// uses, and a plain single-statement INSERT … RETURNING with no lock of its own, so that
// PostgreSQL is free to group the commits of concurrent inserts (one WAL flush for several).
// With `grouped` inserts it is the group-commit floor instead: the creates of one event-loop
// turn go as one INSERT under the project's insert-order lock, one batch at a time, as the
// project's PostgreSQL adapter writes them, with nothing else of the project around them.
import pg from 'pg';
import { INSERT_ORDER_LOCK } from '../src/adapters/postgres/insert-order-lock.js';
import { writeBatches } from '../src/adapters/shared/write-batches.js';
import type { BaselineStorage, PetRow } from './baseline-handler.js';

/** How creates reach the database: one INSERT each (the baseline), or one per turn (the group-commit floor). */
export type BaselineInserts = 'single' | 'grouped';

/**
 * The project's INSERT_PETS_SQL without the idempotency records: the batch's pets in their
 * order, their ids drawn after the project's insert-order lock is granted.
 */
const GROUPED_INSERT_SQL = `WITH ordered AS (SELECT pg_advisory_xact_lock(${INSERT_ORDER_LOCK}))
  INSERT INTO pets (name, category_id, status)
  SELECT w.name, w.category_id, w.status
    FROM ordered, unnest($1::text[], $2::bigint[], $3::text[]) WITH ORDINALITY AS w (name, category_id, status, n)
   ORDER BY w.n
  RETURNING id`;

/**
 * The group-commit floor's inserts: batched by the project's own writeBatches (the inserts of
 * one turn together, one batch at a time), each batch one statement. No retry of a refused
 * batch one write at a time, as the project's adapter does: the bench sends no bad write.
 */
function groupedInserts(pool: pg.Pool): (name: string, categoryId: number, status: string) => Promise<number> {
  const insert = writeBatches<{ name: string; categoryId: number; status: string }, number>(async (batch) => {
    const { rows } = await pool.query<{ id: number }>({
      name: 'baseline_insert_grouped',
      text: GROUPED_INSERT_SQL,
      values: [batch.map((w) => w.name), batch.map((w) => w.categoryId), batch.map((w) => w.status)],
    });
    // The rows were inserted in the batch's order and drew increasing ids under the lock.
    const ids = rows.map((row) => row.id).sort((a, b) => a - b);
    return ids.map((id) => ({ ok: true, output: id }));
  });
  return (name, categoryId, status) => insert({ name, categoryId, status });
}

const COLUMNS = 'id, name, category_id AS "categoryId", status';

/** `poolSize` is the project's default (PETSTORE_PG_POOL_SIZE), passed by the bench (servers.ts). */
export function postgresStorage(url: string, poolSize: number, inserts: BaselineInserts = 'single'): BaselineStorage {
  // int8 as a JS number, as the project does (its ids stop at 2^53 − 1); this process only.
  pg.types.setTypeParser(pg.types.builtins.INT8, Number);
  // The project's pool settings (createPostgresPool): the same timeouts and keep-alive.
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 2000,
    idleTimeoutMillis: 30_000,
    statement_timeout: 5000,
    query_timeout: 6000,
    application_name: 'petstore-baseline',
    keepAlive: true,
  });
  pool.on('error', () => undefined); // an idle connection that broke is dropped by the pool
  const rows = async (name: string, text: string, values: unknown[]): Promise<PetRow[]> =>
    (await pool.query<PetRow>({ name, text, values })).rows;
  const insertOne = async (name: string, categoryId: number, status: string): Promise<number> =>
    (await rows('baseline_insert', 'INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3) RETURNING id', [name, categoryId, status]))[0]!.id;
  return {
    byId: async (id) => (await rows('baseline_by_id', `SELECT ${COLUMNS} FROM pets WHERE id = $1`, [id]))[0],
    page: (after, limit, status) =>
      status === undefined
        ? rows('baseline_page', `SELECT ${COLUMNS} FROM pets WHERE id > $1 ORDER BY id LIMIT $2`, [after, limit])
        : rows('baseline_page_by_status', `SELECT ${COLUMNS} FROM pets WHERE status = $1 AND id > $2 ORDER BY id LIMIT $3`, [status, after, limit]),
    insert: inserts === 'grouped' ? groupedInserts(pool) : insertOne,
    close: () => pool.end(),
  };
}
