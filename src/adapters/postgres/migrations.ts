// The PostgreSQL schema as an ordered list of versioned migrations, and the runner that applies
// them at start. Never edit a released migration: append a new one with the next version.
import type { Pool, PoolClient, QueryConfig } from 'pg';
import { ordersTableSql } from '../shared/order-tables.js';
import { categoriesTableSql, outboxTablesSql, webhookTablesSql } from '../shared/sql-tables.js';
import { EVENTS_TRIGGER_DROPPED_SQL } from './events-notice.js';
import { EVENTS_PUT_IN_ORDER_BY_KEY_SQL, EVENTS_PUT_IN_ORDER_BY_PAGES_SQL, OUTBOX_POSITIONS_SQL } from './outbox-positions-sql.js';
import { POSTGRES_COLUMN_TYPES } from './postgres-column-types.js';
import { PET_COUNTS_SQL } from './pet-counts-sql.js';
import { inTransaction } from './in-transaction.js';

/** One step of the PostgreSQL schema. */
export interface PostgresMigration {
  /** 1, 2, 3 …: the position of the migration in the list. */
  readonly version: number;
  /** A few words on what it does, recorded with the version. */
  readonly name: string;
  /** One or more SQL statements, run in the migration's transaction. */
  readonly sql: string;
}

/** The table that records which migrations a schema has (one row per applied version). */
export const POSTGRES_MIGRATIONS_TABLE = 'petstore_schema_migrations';

/** The PostgreSQL schema, step by step: pets (1), idempotency keys (2), API keys (3), pet versions (4), webhooks (6; 5 is the outbox), webhook claims (7), scoped and expiring API keys (8), orders and the inventory (9), the outbox's positions per transport (10), the trace context of events (11), categories (12), events notified after the commit (13), the outbox put in order by pages (14), joined by its key (15). Released steps never change. */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'pets',
    // Ids come from an identity column: its sequence never hands out the same value twice, to
    // any number of server instances, and never reuses one. MAXVALUE 2^53−1 keeps every id exact
    // for JSON clients: beyond it the database refuses to create a pet rather than the service
    // returning a rounded id. The (status, id) index serves the status filter already in id order.
    sql: `CREATE TABLE pets (
            id          bigint GENERATED ALWAYS AS IDENTITY (MAXVALUE 9007199254740991) PRIMARY KEY,
            name        text   NOT NULL,
            category_id bigint NOT NULL,
            status      text   NOT NULL CHECK (status IN ('available', 'pending', 'sold'))
          );
          CREATE INDEX pets_status_id ON pets (status, id);`,
  },
  {
    version: 2,
    name: 'idempotency keys',
    // The idempotency records of creation requests, per caller (see SqliteIdempotencyStore).
    // `token` names the claim that may complete or release a record; `pet` is the created pet.
    sql: `CREATE TABLE idempotency_keys (
            scope            text        NOT NULL,
            key              text        NOT NULL,
            token            text        NOT NULL,
            fingerprint      text        NOT NULL,
            pet              jsonb,
            expires_at       timestamptz NOT NULL,
            lease_expires_at timestamptz NOT NULL,
            PRIMARY KEY (scope, key)
          );
          CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);`,
  },
  {
    version: 3,
    name: 'api keys',
    // API keys managed with `petstore keys`, kept as the SHA-256 of the key (hex), never the
    // key; the UNIQUE digest is the index every authentication looks a key up by. Ids are
    // exact for JSON clients, as for pets. revoked_at is NULL while the key is active.
    sql: `CREATE TABLE api_keys (
            id         bigint      GENERATED ALWAYS AS IDENTITY (MAXVALUE 9007199254740991) PRIMARY KEY,
            digest     text        NOT NULL UNIQUE CHECK (digest ~ '^[0-9a-f]{64}$'),
            caller_id  text        NOT NULL,
            label      text        NOT NULL,
            created_at timestamptz NOT NULL,
            revoked_at timestamptz
          );`,
  },
  {
    version: 4,
    name: 'pet versions',
    // Interface 1.1, pets that change: the version of each pet, for ETags and compare-and-set
    // writes. Every existing pet, and every new one (the batch insert names no version), starts
    // at 1, so creates keep their one statement. Since PostgreSQL 11, adding a column with a
    // constant default rewrites no row; the CHECK reads the table once.
    sql: `ALTER TABLE pets ADD COLUMN version bigint NOT NULL DEFAULT 1 CHECK (version >= 1);`,
  },
  {
    version: 5,
    name: 'events outbox',
    // Change events: each written in its change's statement (so its transaction), numbered by
    // an identity column; relayed_at is NULL until the relay has handed it on, and the partial
    // index finds those alone. A statement-level trigger NOTIFYs listening relays at commit (a
    // hint: they poll too). The lease names the one process whose relay is active.
    sql: `${outboxTablesSql(POSTGRES_COLUMN_TYPES)}
          CREATE FUNCTION events_recorded() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN PERFORM pg_notify('petstore_events', ''); RETURN NULL; END $$;
          CREATE TRIGGER events_recorded AFTER INSERT ON events FOR EACH STATEMENT EXECUTE FUNCTION events_recorded();`,
  },
  {
    version: 6,
    name: 'webhooks',
    // Endpoints keep their signing secret (signing needs it; the database is trusted as for API
    // keys, see docs/security.md) and their event types, comma-separated ('' = all). A delivery
    // keeps the event's CloudEvents JSON, so an attempt works after the outbox pruned the
    // event; (endpoint_id, event_id) is unique, so an event enqueued again adds nothing. While
    // pending, next_attempt_at is when it is due, or until when a dispatcher claims it; the
    // partial index serves "due first" over pending deliveries only.
    sql: webhookTablesSql(POSTGRES_COLUMN_TYPES),
  },
  {
    version: 7,
    name: 'webhook claims',
    // leased_until is until when a dispatcher's claim of a pending delivery holds, NULL once
    // its attempt is recorded: the deliveries of one endpoint under way, across every instance
    // on the database, are counted from it, so that one endpoint cannot hold every dispatcher's
    // attempts. The partial index keeps that count to the few claimed rows, and the due index
    // per endpoint lets a claim read only the front of each endpoint's backlog.
    sql: `ALTER TABLE webhook_deliveries ADD COLUMN leased_until timestamptz;
          CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (endpoint_id, leased_until) WHERE leased_until IS NOT NULL;
          CREATE INDEX webhook_deliveries_endpoint_due ON webhook_deliveries (endpoint_id, next_attempt_at, id) WHERE status = 'pending';`,
  },
  {
    version: 8,
    name: 'api key scopes and expiry',
    // scopes is NULL for every scope, those of later releases included, which is what every
    // key stored before holds; else its scopes separated by one space (text, as in SQLite).
    // expires_at is NULL for a key that never expires, last_used_at until an instance first
    // accepts the key (written at most once a minute per key and instance). Nullable columns
    // without a default rewrite no row, and every key keeps working.
    sql: `ALTER TABLE api_keys
            ADD COLUMN scopes       text CHECK (scopes <> ''),
            ADD COLUMN expires_at   timestamptz,
            ADD COLUMN last_used_at timestamptz;`,
  },
  {
    version: 9,
    name: 'orders and inventory',
    // Interface 1.3, the store: orders (shared/order-tables.ts), and the inventory, counted once
    // here and kept by triggers in slots that concurrent writers spread over (pet-counts-sql.ts).
    // The lock keeps the pets' writers of a release before (a rolling upgrade) out from the count
    // to the triggers' creation, so that no change falls between the two; readers go on.
    sql: `LOCK TABLE pets IN SHARE ROW EXCLUSIVE MODE;
          ${ordersTableSql(POSTGRES_COLUMN_TYPES)}
          ${PET_COUNTS_SQL}`,
  },
  {
    version: 10,
    name: 'outbox positions per transport',
    sql: OUTBOX_POSITIONS_SQL,
  },
  {
    version: 11,
    name: 'trace context of events',
    // The W3C trace context of the change that recorded an event, when tracing is on, carried
    // with the event to its consumers. Nullable columns without a default: no row is rewritten.
    sql: `ALTER TABLE events ADD COLUMN traceparent text, ADD COLUMN tracestate text`,
  },
  {
    version: 12,
    name: 'categories',
    // Interface 1.3. Ids from an identity column, exact for JSON clients as the pets'; the pets
    // keep their category_id as it is. The index of pets by (category_id, status, id) is built
    // in the migration's transaction (a plain CREATE INDEX: CONCURRENTLY cannot run in one).
    sql: categoriesTableSql(POSTGRES_COLUMN_TYPES),
  },
  {
    version: 13,
    name: 'events notified after the commit',
    sql: EVENTS_TRIGGER_DROPPED_SQL,
  },
  {
    version: 14,
    name: 'outbox put in order by pages',
    sql: EVENTS_PUT_IN_ORDER_BY_PAGES_SQL,
  },
  {
    version: 15,
    name: 'outbox put in order by its key',
    sql: EVENTS_PUT_IN_ORDER_BY_KEY_SQL,
  },
];

/** The schema version this release migrates a PostgreSQL schema to. */
export const POSTGRES_SCHEMA_VERSION = POSTGRES_MIGRATIONS.length;

// The first key of the advisory lock, shared by every petstore release; the second key is the
// schema, so instances working on different schemas of one database do not wait for each other.
const MIGRATION_LOCK_CLASS = 0x7065_7473; // "pets"

/** How long the migration transaction may take, lock wait included (its statements ignore the pool's timeouts). */
export const MIGRATION_TIMEOUT_MS = 10 * 60_000;

/** What {@link migratePostgres} did: the schema version before and after. */
export interface MigrationResult {
  /** The schema version found before (0 for a new schema). */
  readonly from: number;
  /** The schema version now. */
  readonly to: number;
}

function checkOrder(migrations: readonly PostgresMigration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(`migration "${migration.name}" has version ${migration.version}, expected ${index + 1}`);
    }
  });
}

/**
 * Brings the schema the pool works in (the first schema of its search_path) to the newest
 * version, and refuses a schema made by a newer release. Everything happens in one transaction
 * under a transaction-level advisory lock: ten instances starting at once on a new schema
 * migrate it exactly once (the others wait, then find nothing left to do), and an interrupted
 * upgrade leaves the previous version intact, as PostgreSQL's DDL is transactional.
 */
export async function migratePostgres(
  pool: Pool,
  migrations: readonly PostgresMigration[] = POSTGRES_MIGRATIONS,
): Promise<MigrationResult> {
  checkOrder(migrations);
  // The pool's query timeout would cut a long migration or a long wait for the lock.
  const run = (client: PoolClient, text: string, values: unknown[] = []) =>
    client.query({ text, values, query_timeout: MIGRATION_TIMEOUT_MS } as QueryConfig);
  return inTransaction(
    pool,
    async (client) => {
      await run(client, `SET LOCAL statement_timeout = ${MIGRATION_TIMEOUT_MS}`);
      await run(client, "SELECT pg_advisory_xact_lock($1, hashtext(coalesce(current_schema(), '')))", [MIGRATION_LOCK_CLASS]);
      await run(
        client,
        `CREATE TABLE IF NOT EXISTS ${POSTGRES_MIGRATIONS_TABLE} (
           version    integer     PRIMARY KEY,
           name       text        NOT NULL,
           applied_at timestamptz NOT NULL DEFAULT now()
         )`,
      );
      const { rows } = await run(client, `SELECT coalesce(max(version), 0) AS version FROM ${POSTGRES_MIGRATIONS_TABLE}`);
      const from = Number((rows[0] as { version: number }).version);
      if (from > migrations.length) {
        throw new Error(
          `the database has schema version ${from}, newer than this release knows (${migrations.length}); upgrade the service`,
        );
      }
      for (const migration of migrations.slice(from)) {
        await run(client, migration.sql);
        await run(client, `INSERT INTO ${POSTGRES_MIGRATIONS_TABLE} (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
      }
      return { result: { from, to: migrations.length } };
    },
    (client) => run(client, 'BEGIN'),
  );
}
