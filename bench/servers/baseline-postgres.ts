// The PostgreSQL baseline's storage: ONE pg pool, named (prepared) statements as the project
// uses, and a plain single-statement INSERT … RETURNING with no lock of its own, so that
// PostgreSQL is free to group the commits of concurrent inserts (one WAL flush for several).
import pg from 'pg';
import type { BaselineStorage, PetRow } from './baseline-handler.js';

const COLUMNS = 'id, name, category_id AS "categoryId", status';

/** `poolSize` is the project's default (PETSTORE_PG_POOL_SIZE), passed by the bench (servers.ts). */
export function postgresStorage(url: string, poolSize: number): BaselineStorage {
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
  const insert = async (name: string, categoryId: number, status: string): Promise<number> =>
    (
      await rows('baseline_insert', 'INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3) RETURNING id', [
        name,
        categoryId,
        status,
      ])
    )[0]!.id;
  return {
    byId: async (id) => (await rows('baseline_by_id', `SELECT ${COLUMNS} FROM pets WHERE id = $1`, [id]))[0],
    page: (after, limit, status) =>
      status === undefined
        ? rows('baseline_page', `SELECT ${COLUMNS} FROM pets WHERE id > $1 ORDER BY id LIMIT $2`, [after, limit])
        : rows('baseline_page_by_status', `SELECT ${COLUMNS} FROM pets WHERE status = $1 AND id > $2 ORDER BY id LIMIT $3`, [
            status,
            after,
            limit,
          ]),
    insert,
    close: () => pool.end(),
  };
}
