// The tables that SQLite and PostgreSQL both create in their migrations: one shape each,
// written in either database's column types.

/**
 * The column types of one SQL database. They differ because the databases do: SQLite's STRICT
 * tables know INTEGER and TEXT alone, so its times are Unix milliseconds and its ids
 * AUTOINCREMENT (never reused); PostgreSQL's ids are identity columns capped at 2^53−1, so that
 * every id is exact for JSON clients, and its times are timestamptz.
 */
export interface SqlColumnTypes {
  /** A primary key the database numbers, never handing the same value out twice. */
  readonly id: string;
  /** A column that holds such an id. */
  readonly idReference: string;
  /** The outbox's order: numbered as an id is, and never shown to a client, so not capped. */
  readonly sequence: string;
  readonly integer: string;
  readonly text: string;
  /** An event id, a UUID. */
  readonly uuid: string;
  readonly json: string;
  /** A point in time. */
  readonly time: string;
  /** What follows the closing parenthesis of a CREATE TABLE. */
  readonly tableOptions: string;
  /** The same, for a table whose primary key is its only key (a row id would be a second). */
  readonly keyedTableOptions: string;
}

/** The outbox of change events, its two partial indexes, and the relay's lease, in the types `t`. */
export const outboxTablesSql = (t: SqlColumnTypes): string =>
  `CREATE TABLE events (
     sequence   ${t.sequence},
     id         ${t.uuid} NOT NULL UNIQUE,
     type       ${t.text} NOT NULL,
     pet_id     ${t.idReference} NOT NULL,
     data       ${t.json} NOT NULL,
     time       ${t.time} NOT NULL,
     relayed_at ${t.time}
   )${t.tableOptions};
   CREATE INDEX events_waiting ON events (sequence) WHERE relayed_at IS NULL;
   CREATE INDEX events_relayed_at ON events (relayed_at) WHERE relayed_at IS NOT NULL;
   CREATE TABLE relay_lease (
     name       ${t.text} PRIMARY KEY,
     holder     ${t.text} NOT NULL,
     expires_at ${t.time} NOT NULL
   )${t.keyedTableOptions};`;

/** The webhook endpoints and deliveries tables and their indexes, in the types `t`. */
export const webhookTablesSql = (t: SqlColumnTypes): string =>
  `CREATE TABLE webhook_endpoints (
     id          ${t.id},
     url         ${t.text} NOT NULL,
     event_types ${t.text} NOT NULL,
     secret      ${t.text} NOT NULL,
     created_at  ${t.time} NOT NULL, disabled_at ${t.time}
   )${t.tableOptions};
   CREATE TABLE webhook_deliveries (
     id              ${t.id},
     endpoint_id     ${t.idReference} NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
     event_id        ${t.text} NOT NULL,
     event_type      ${t.text} NOT NULL,
     body            ${t.text} NOT NULL,
     status          ${t.text} NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
     attempts        ${t.integer} NOT NULL DEFAULT 0 CHECK (attempts >= 0),
     next_attempt_at ${t.time},
     last_status     ${t.integer},
     last_error      ${t.text},
     created_at      ${t.time} NOT NULL,
     last_attempt_at ${t.time},
     UNIQUE (endpoint_id, event_id),
     CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL))
   )${t.tableOptions};
   CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
   CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id);
   CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);`;

/**
 * The categories (interface 1.3), in the types `t`: each name unique by its key (the domain's
 * categoryNameKey), held by the unique index so that two racing writes cannot take one name;
 * and the index of the pets of a category, by status then id, so that a page of a category's
 * pets (with or without a status) reads only the rows it answers.
 */
export const categoriesTableSql = (t: SqlColumnTypes): string =>
  `CREATE TABLE categories (
     id       ${t.id},
     name     ${t.text} NOT NULL,
     name_key ${t.text} NOT NULL UNIQUE,
     version  ${t.integer} NOT NULL DEFAULT 1 CHECK (version >= 1)
   )${t.tableOptions};
   CREATE INDEX pets_category_status_id ON pets (category_id, status, id);`;
