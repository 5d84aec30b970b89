// The orders table that SQLite and PostgreSQL both create, in either database's column types.
import type { SqlColumnTypes } from './sql-tables.js';

/** The statuses of an open order, as SQL: the partial index and the queries that use it say it the same way. */
export const OPEN_ORDER_SQL = "status IN ('placed', 'approved')";

/**
 * Orders and their indexes, in the types `t`. An order is never deleted; its id is numbered
 * as a pet's is, never reused. The key columns hold the idempotency key it was placed with
 * while that is remembered (all NULL otherwise). The partial unique index on the pet of an
 * open order is the database's own guarantee that a pet is never reserved twice.
 */
export const ordersTableSql = (t: SqlColumnTypes): string =>
  `CREATE TABLE orders (
     id              ${t.id},
     pet_id          ${t.idReference} NOT NULL,
     status          ${t.text} NOT NULL CHECK (status IN ('placed', 'approved', 'delivered', 'cancelled')),
     note            ${t.text},
     placed_at       ${t.time} NOT NULL,
     updated_at      ${t.time} NOT NULL,
     version         ${t.integer} NOT NULL DEFAULT 1 CHECK (version >= 1),
     key_scope       ${t.text},
     key             ${t.text},
     key_fingerprint ${t.text},
     key_expires_at  ${t.time},
     CHECK ((key IS NULL) = (key_scope IS NULL) AND (key IS NULL) = (key_fingerprint IS NULL) AND (key IS NULL) = (key_expires_at IS NULL))
   )${t.tableOptions};
   CREATE UNIQUE INDEX orders_key ON orders (key_scope, key) WHERE key IS NOT NULL;
   CREATE UNIQUE INDEX orders_open_pet ON orders (pet_id) WHERE ${OPEN_ORDER_SQL};
   CREATE INDEX orders_status_id ON orders (status, id);
   CREATE INDEX orders_pet_id ON orders (pet_id, id);`;
