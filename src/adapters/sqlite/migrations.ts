// The SQLite schema as an ordered list of migrations. PRAGMA user_version holds how many
// have been applied; each runs in its own transaction at start, so an interrupted upgrade
// leaves the previous version intact. Never edit a released migration: append a new one.
import type { Database } from 'better-sqlite3';
import { ordersTableSql } from '../shared/order-tables.js';
import { categoriesTableSql, outboxTablesSql, type SqlColumnTypes, webhookTablesSql } from '../shared/sql-tables.js';

const SQLITE_COLUMN_TYPES: SqlColumnTypes = {
  id: 'INTEGER PRIMARY KEY AUTOINCREMENT',
  idReference: 'INTEGER',
  sequence: 'INTEGER PRIMARY KEY AUTOINCREMENT',
  integer: 'INTEGER',
  text: 'TEXT',
  uuid: 'TEXT',
  json: 'TEXT',
  time: 'INTEGER',
  tableOptions: ' STRICT',
  keyedTableOptions: ' STRICT, WITHOUT ROWID',
};

/** The SQLite schema, step by step: pets (1), idempotency keys (2), API keys (3), pet versions (4), the events outbox (5), webhooks (6), the relay's marks (7), webhook claims (8), scoped and expiring API keys (9), orders and the inventory (10), the outbox's positions per transport (11), the trace context of events (12), categories (13). Released steps never change. */
export const SQLITE_MIGRATIONS: readonly string[] = [
  // 1: pets. AUTOINCREMENT so that an id is never reused, even after the highest row is gone.
  // The (status, id) index serves the status filter already in id order, with no sort step.
  `CREATE TABLE pets (
     id          INTEGER PRIMARY KEY AUTOINCREMENT,
     name        TEXT    NOT NULL,
     category_id INTEGER NOT NULL,
     status      TEXT    NOT NULL CHECK (status IN ('available', 'pending', 'sold'))
   ) STRICT;
   CREATE INDEX pets_status_id ON pets (status, id);`,
  // 2: idempotency keys of creation requests, per caller. Times are Unix milliseconds.
  // `pet` holds the created pet as JSON once the request has completed; `token` names the
  // claim that may complete it.
  `CREATE TABLE idempotency_keys (
     scope            TEXT    NOT NULL,
     key              TEXT    NOT NULL,
     token            TEXT    NOT NULL,
     fingerprint      TEXT    NOT NULL,
     pet              TEXT,
     expires_at       INTEGER NOT NULL,
     lease_expires_at INTEGER NOT NULL,
     PRIMARY KEY (scope, key)
   ) STRICT, WITHOUT ROWID;
   CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);`,
  // 3: API keys managed with `petstore keys`, kept as the SHA-256 of the key (hex), never the
  // key. The UNIQUE digest is the index every authentication looks a key up by. Times are
  // Unix milliseconds; revoked_at is NULL while the key is active.
  `CREATE TABLE api_keys (
     id         INTEGER PRIMARY KEY AUTOINCREMENT,
     digest     TEXT    NOT NULL UNIQUE CHECK (length(digest) = 64),
     caller_id  TEXT    NOT NULL,
     label      TEXT    NOT NULL,
     created_at INTEGER NOT NULL,
     revoked_at INTEGER
   ) STRICT;`,
  // 4: interface 1.1, pets that change. The version of each pet, for ETags and compare-and-set
  // writes: every existing pet, and every new one (the insert names no version), starts at 1,
  // so creates keep their one statement. Adding a column with a constant default rewrites no row.
  `ALTER TABLE pets ADD COLUMN version INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1);`,
  // 5: change events. The outbox: each event written in its change's transaction, in sequence
  // order (AUTOINCREMENT: a sequence is never reused, even after pruning); relayed_at is NULL
  // until the relay has handed it on, and the partial index finds those alone. The lease names
  // the one process whose relay is active. Times are Unix milliseconds; data is JSON.
  outboxTablesSql(SQLITE_COLUMN_TYPES),
  // 6: webhooks. Endpoints keep their signing secret (signing needs it; the database is trusted
  // as for API keys, see docs/security.md) and their event types, comma-separated ('' = all).
  // A delivery keeps the event's CloudEvents JSON, so an attempt works after the outbox pruned
  // the event; (endpoint_id, event_id) is unique, so an event enqueued again adds nothing.
  // While pending, next_attempt_at is when it is due, or until when a dispatcher claims it;
  // the partial index serves "due first" over pending deliveries only. Times are Unix ms.
  webhookTablesSql(SQLITE_COLUMN_TYPES),
  // 7: the outbox as an append-only log. One writer at a time commits in sequence order, so
  // what the relay has handed on is always a prefix: relay_marks keeps one row per relay pass
  // (the last sequence handed on, and when), the largest `through` is the relay's position,
  // and pruning goes by pass. An event is then written once, into the table's own B-tree: no
  // row is rewritten when relayed, and no index is kept beside it (the UNIQUE index on the
  // random event id cost a page of the log per event; ids are UUIDs made by the outbox).
  // The table is rebuilt without relayed_at, keeping its AUTOINCREMENT high-water mark, and
  // the passes already made become marks (the relayed events are a prefix there too).
  `CREATE TABLE relay_marks (
     through INTEGER PRIMARY KEY,
     at      INTEGER NOT NULL
   ) STRICT;
   INSERT INTO relay_marks (through, at)
     SELECT max(sequence), relayed_at FROM events WHERE relayed_at IS NOT NULL GROUP BY relayed_at;
   CREATE TABLE events_log (
     sequence INTEGER PRIMARY KEY AUTOINCREMENT,
     id       TEXT    NOT NULL,
     type     TEXT    NOT NULL,
     pet_id   INTEGER NOT NULL,
     data     TEXT    NOT NULL,
     time     INTEGER NOT NULL
   ) STRICT;
   INSERT INTO sqlite_sequence (name, seq) SELECT 'events_log', seq FROM sqlite_sequence WHERE name = 'events';
   INSERT INTO events_log (sequence, id, type, pet_id, data, time) SELECT sequence, id, type, pet_id, data, time FROM events;
   DROP TABLE events;
   ALTER TABLE events_log RENAME TO events;`,
  // 8: webhook claims. leased_until is until when a dispatcher's claim of a pending delivery
  // holds, NULL once its attempt is recorded: the deliveries of one endpoint under way, across
  // every process on the file, are counted from it, so that one endpoint cannot hold every
  // dispatcher's attempts. The partial index keeps that count to the few claimed rows, and the
  // due index per endpoint lets a claim read only the front of each endpoint's backlog.
  `ALTER TABLE webhook_deliveries ADD COLUMN leased_until INTEGER;
   CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (endpoint_id, leased_until) WHERE leased_until IS NOT NULL;
   CREATE INDEX webhook_deliveries_endpoint_due ON webhook_deliveries (endpoint_id, next_attempt_at, id) WHERE status = 'pending';`,
  // 9: scoped and expiring API keys. scopes is NULL for every scope, those of later releases
  // included, which is what every key stored before holds; else its scopes separated by one
  // space. expires_at is NULL for a key that never expires, last_used_at until a server first
  // accepts the key (written at most once a minute per key and process). Times are Unix ms.
  // Nullable columns without a default: no row is rewritten, and every key keeps working.
  `ALTER TABLE api_keys ADD COLUMN scopes TEXT CHECK (scopes <> '');
   ALTER TABLE api_keys ADD COLUMN expires_at INTEGER;
   ALTER TABLE api_keys ADD COLUMN last_used_at INTEGER;`,
  // 10: interface 1.3, the store. Orders (shared/order-tables.ts), and the inventory: the count
  // of pets per status, counted once here (one pass of the (status, id) index) and kept by
  // triggers in every transaction that changes a pet, whoever writes it. One row per status
  // is no hot spot here: SQLite has one writer at a time (docs/decisions/0027-orders-and-the-inventory.md).
  `${ordersTableSql(SQLITE_COLUMN_TYPES)}
   CREATE TABLE pet_counts (
     status TEXT    PRIMARY KEY,
     count  INTEGER NOT NULL
   ) STRICT, WITHOUT ROWID;
   INSERT INTO pet_counts (status, count)
     SELECT 'available', count(*) FROM pets WHERE status = 'available'
     UNION ALL SELECT 'pending', count(*) FROM pets WHERE status = 'pending'
     UNION ALL SELECT 'sold', count(*) FROM pets WHERE status = 'sold';
   CREATE TRIGGER pets_counted_insert AFTER INSERT ON pets BEGIN
     UPDATE pet_counts SET count = count + 1 WHERE status = NEW.status;
   END;
   CREATE TRIGGER pets_counted_update AFTER UPDATE OF status ON pets WHEN OLD.status <> NEW.status BEGIN
     UPDATE pet_counts SET count = count - 1 WHERE status = OLD.status;
     UPDATE pet_counts SET count = count + 1 WHERE status = NEW.status;
   END;
   CREATE TRIGGER pets_counted_delete AFTER DELETE ON pets BEGIN
     UPDATE pet_counts SET count = count - 1 WHERE status = OLD.status;
   END;`,
  // 11: each transport at its own pace. outbox_marks keeps one row per pass of each transport
  // (the last sequence it took, and when): the largest `through` of a transport is its
  // position, and pruning goes by the least of them. Every transport carries on from the relay's
  // position as it was (its marks, copied for each): every event that waited still waits for
  // every transport (docs/decisions/0028-each-transport-at-its-own-pace.md).
  `CREATE TABLE outbox_marks (
     transport TEXT    NOT NULL,
     through   INTEGER NOT NULL,
     at        INTEGER NOT NULL,
     PRIMARY KEY (transport, through)
   ) STRICT, WITHOUT ROWID;
   INSERT INTO outbox_marks (transport, through, at)
     SELECT transports.name, relay_marks.through, relay_marks.at
       FROM relay_marks, (SELECT 'webhooks' AS name UNION ALL SELECT 'nats' UNION ALL SELECT 'in-process') AS transports;
   DROP TABLE relay_marks;`,
  // 12: the W3C trace context of the change that recorded an event (its `traceparent` and
  // `tracestate`), when tracing is on, carried with the event to its consumers. Nullable
  // columns without a default: no row is rewritten, and the events waiting keep none.
  `ALTER TABLE events ADD COLUMN traceparent TEXT;
   ALTER TABLE events ADD COLUMN tracestate TEXT;`,
  // 13: categories (interface 1.3). AUTOINCREMENT, so that no category id comes back; the pets
  // keep their categoryId as it is (a number that may name no category, as before). The new
  // index of pets by (category_id, status, id) is built from the rows there.
  categoriesTableSql(SQLITE_COLUMN_TYPES),
];

/** The schema version (PRAGMA user_version) this release migrates a SQLite database to. */
export const SQLITE_SCHEMA_VERSION = SQLITE_MIGRATIONS.length;

/**
 * Brings the schema of `db` to the newest version; refuses a database made by a newer release.
 * The version is read and every pending migration applied inside one IMMEDIATE transaction,
 * so two processes starting at once on a new file migrate it exactly once.
 */
export function migrateSqlite(db: Database): void {
  db.transaction(() => {
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current > SQLITE_SCHEMA_VERSION) {
      throw new Error(
        `the database has schema version ${current}, newer than this release knows (${SQLITE_SCHEMA_VERSION}); upgrade the service`,
      );
    }
    for (const migration of SQLITE_MIGRATIONS.slice(current)) db.exec(migration);
    db.pragma(`user_version = ${SQLITE_SCHEMA_VERSION}`);
  }).immediate();
}
