// PostgreSQL's migration to an outbox that each transport reads at its own pace
// (docs/decisions/0028-each-transport-at-its-own-pace.md).
//
// Sequences are taken before commit, so on PostgreSQL they do not follow the commits: an event
// of sequence 10 may commit after one of 11 (each pet's own events do follow, as a pet's changes
// take its row's lock one after another). A position must not pass an event that commits later,
// so the outbox has an order of its own, `log_position`: events_put_in_order() gives each
// committed event that has none the next position, in sequence order, under a lock that lets
// one caller do it at a time. Positions are then given in the order of these calls, and a
// reader that sees one sees every position below it.
//
// A transport's position is the largest `through` of its marks in outbox_marks (one per pass:
// how far it had come, and when; pruning goes by the least of them). The events relayed before
// the upgrade get positions first, and every transport's position is after them; the events
// that waited get theirs when next read, after it: they still wait for every transport.
// relayed_at stays, unread, for the instances of the release before during a rolling upgrade:
// one of them that holds the lease relays as before (the events it marks are handed on again,
// with the same ids, once an instance of this release leads); a later release drops it. Its
// indexes go: this release never sets it, and the one before reads it at most once a second.

/** The advisory lock's first key for events_put_in_order ("outb"); the second is the schema. */
export const EVENTS_ORDER_LOCK_CLASS = 0x6f75_7462;

export const OUTBOX_POSITIONS_SQL = `
  CREATE SEQUENCE events_log_position AS bigint;
  ALTER TABLE events ADD COLUMN log_position bigint UNIQUE;
  UPDATE events SET log_position = ordered.position
    FROM (SELECT sequence, nextval('events_log_position') AS position
            FROM (SELECT sequence FROM events WHERE relayed_at IS NOT NULL ORDER BY sequence) AS relayed) AS ordered
   WHERE events.sequence = ordered.sequence;
  CREATE TABLE outbox_marks (
    transport text        NOT NULL,
    through   bigint      NOT NULL,
    at        timestamptz NOT NULL,
    PRIMARY KEY (transport, through)
  );
  INSERT INTO outbox_marks (transport, through, at)
    SELECT transports.name, relayed.through, relayed.at
      FROM (SELECT max(log_position) AS through, max(relayed_at) AS at FROM events WHERE relayed_at IS NOT NULL) AS relayed,
           (VALUES ('webhooks'), ('nats'), ('in-process')) AS transports (name)
     WHERE relayed.through IS NOT NULL;
  DROP INDEX events_waiting;
  DROP INDEX events_relayed_at;
  CREATE INDEX events_unordered ON events (sequence) WHERE log_position IS NULL;
  CREATE FUNCTION events_put_in_order() RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_advisory_xact_lock(${EVENTS_ORDER_LOCK_CLASS}, hashtext(coalesce(current_schema(), '')));
      UPDATE events SET log_position = ordered.position
        FROM (SELECT sequence, nextval('events_log_position') AS position
                FROM (SELECT sequence FROM events WHERE log_position IS NULL ORDER BY sequence) AS unordered) AS ordered
       WHERE events.sequence = ordered.sequence;
    END $$;`;

/**
 * Migration 14: events_put_in_order() finds the events that wait for a position by a plain scan
 * of the partial index, a page at a time, in sequence order, until a page is not full. A plain
 * scan marks the entries of the events it finds positioned as dead, so the next call skips them.
 * The planner chose a bitmap scan (the table's statistics say few events wait), which marks
 * nothing: each call read again every entry the last vacuum had left, 24,000 a call at 4,000
 * creates/s. The function's own setting turns bitmap scans off for its statements alone.
 */
export const EVENTS_PUT_IN_ORDER_BY_PAGES_SQL = `
  CREATE OR REPLACE FUNCTION events_put_in_order() RETURNS void LANGUAGE plpgsql SET enable_bitmapscan = off AS $$
    DECLARE
      given bigint;
    BEGIN
      PERFORM pg_advisory_xact_lock(${EVENTS_ORDER_LOCK_CLASS}, hashtext(coalesce(current_schema(), '')));
      LOOP
        UPDATE events SET log_position = ordered.position
          FROM (SELECT sequence, nextval('events_log_position') AS position
                  FROM (SELECT sequence FROM events WHERE log_position IS NULL ORDER BY sequence LIMIT 1000) AS unordered) AS ordered
         WHERE events.sequence = ordered.sequence;
        GET DIAGNOSTICS given = ROW_COUNT;
        EXIT WHEN given < 1000;
      END LOOP;
    END $$;`;

/**
 * Migration 15: events_put_in_order() joins the events it positions to the table by their
 * primary key. A session plans the function's statements once, from the table's statistics;
 * planned while they said the table was small (as they do until the next ANALYZE, and autovacuum
 * lags a table whose rows are inserted, positioned and pruned within seconds), the join hashed a
 * scan of every event, dead rows included, on every call: 12 million rows read in 8 s of creates.
 * The function's own settings leave its statements the partial index and the primary key alone.
 */
export const EVENTS_PUT_IN_ORDER_BY_KEY_SQL = `
  ALTER FUNCTION events_put_in_order() SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off;`;
