// EventOutbox in PostgreSQL (migrations 5 and 10): PostgresPetRepository records each event in
// its change's statement; the relay reads them from here, each transport from its position in
// the outbox order (outbox-positions-sql.ts). The writers NOTIFY `petstore_events` after every
// commit that recorded one (events-notice.ts), so relays listening on any instance wake at once.
import pg, { type Pool } from 'pg';
import type { EventOutbox, OutboxBacklog, OutboxBatch } from '../../domain/index.js';
import { eventOfRow, OUTBOX_COLUMNS, type OutboxRow, RELAY_LEASE } from '../shared/outbox-rows.js';
import { joined } from '../shared/coalesced.js';
import { EVENTS_CHANNEL, eventsNoticeOf } from './events-notice.js';
import { eventDataFromJsonb } from './jsonb-pet.js';
import { queryRows } from './postgres-errors.js';
import { UNFLUSHED } from './unflushed-commit.js';

/** Where the transport $1 stands in the outbox order: the last position it took (0, the start, for one that has taken none). */
const POSITION = `coalesce((SELECT max(through) FROM outbox_marks WHERE transport = $1), 0)`;

/** The outbox of the database of a pool opened by openPostgresPool (which migrates it). */
export class PostgresEventOutbox implements EventOutbox {
  /**
   * Gives what has committed its place in the outbox order. The transports' reads of one round
   * come together: the call under way serves every read that asks meanwhile, rather than each
   * read queuing on the function's lock in turn, or waiting for one more call.
   */
  private readonly putInOrder = joined(() =>
    queryRows(this.pool, { name: 'petstore_events_put_in_order', text: `SELECT ${UNFLUSHED}, events_put_in_order()` }).then(
      () => undefined,
    ),
  );

  // The relays watching from this process (one, as the service runs).
  private readonly wakers = new Set<() => void>();

  constructor(private readonly pool: Pool) {}

  async read(transport: string, limit: number): Promise<OutboxBatch> {
    // What has committed since the last call gets its place in the outbox order first.
    await this.putInOrder();
    const rows = await queryRows<Partial<OutboxRow> & { position: string; log_position: string | null }>(this.pool, {
      name: 'petstore_events_after',
      text: `WITH here AS (SELECT ${POSITION} AS position)
             SELECT here.position, waiting.* FROM here LEFT JOIN LATERAL (
               SELECT ${OUTBOX_COLUMNS}, log_position FROM events
                WHERE log_position > here.position ORDER BY log_position LIMIT $2) AS waiting ON true`,
      values: [transport, limit],
    });
    const events = rows
      .filter((row) => row.log_position !== null)
      .map((row) => {
        const event = eventOfRow(row as OutboxRow);
        return { ...event, data: eventDataFromJsonb(event.data) };
      });
    const last = rows.at(-1);
    return { events, through: Number(last?.log_position ?? last?.position ?? 0) };
  }

  async markTaken(transport: string, through: number, at: Date): Promise<void> {
    await queryRows(this.pool, {
      name: 'petstore_events_taken',
      // A mark never moves a position back (a lease taken over mid-pass may mark late).
      text: `INSERT INTO outbox_marks (transport, through, at)
             SELECT $1, $2, $3 FROM (SELECT ${UNFLUSHED}) AS unflushed WHERE $2 > ${POSITION} ON CONFLICT DO NOTHING`,
      values: [transport, through, at],
    });
  }

  async newestPosition(): Promise<number> {
    // What has committed is put in order first, as for a read.
    await this.putInOrder();
    const [row] = await queryRows<{ newest: string | null }>(this.pool, {
      name: 'petstore_events_newest',
      text: 'SELECT max(log_position) AS newest FROM events',
    });
    return Number(row?.newest ?? 0);
  }

  async prune(before: Date, transports: readonly string[]): Promise<number> {
    const [row] = await queryRows<{ pruned: string }>(this.pool, {
      name: 'petstore_events_prune',
      // How far every one of the transports had come before the time; each one's newest mark stays: it is its position.
      text: `WITH taken AS (
               SELECT min(coalesce((SELECT max(through) FROM outbox_marks WHERE transport = t AND at < $1), 0)) AS through
                 FROM unnest($2::text[]) AS t),
             pruned AS (DELETE FROM events WHERE log_position <= (SELECT through FROM taken) RETURNING 1),
             marks AS (DELETE FROM outbox_marks AS old WHERE at < $1
                         AND through < (SELECT max(through) FROM outbox_marks AS newest WHERE newest.transport = old.transport))
             SELECT count(*) AS pruned FROM pruned`,
      values: [before, transports],
    });
    return Number(row?.pruned ?? 0);
  }

  async backlog(transport: string): Promise<OutboxBacklog> {
    const [row] = await queryRows<{ count: string; oldest: Date | null }>(this.pool, {
      name: 'petstore_events_backlog',
      text: `SELECT count(*) AS count, min(time) AS oldest FROM events WHERE log_position IS NULL OR log_position > ${POSITION}`,
      values: [transport],
    });
    return { count: Number(row?.count ?? 0), oldest: row?.oldest ?? undefined };
  }

  /**
   * LISTENs on a connection of its own, outside the pool (which would hand it back and lose the
   * LISTEN). A connection that breaks is not made again here: the relay polls meanwhile.
   */
  async watch(wake: () => void): Promise<() => Promise<void>> {
    const listener = new pg.Client(this.pool.options);
    // A broken listener only ends the hint; the error must not reach the process.
    listener.on('error', () => undefined);
    listener.on('notification', () => wake());
    await listener.connect();
    await listener.query(`LISTEN ${EVENTS_CHANNEL}`);
    this.wakers.add(wake);
    return async () => {
      this.wakers.delete(wake);
      await listener.end().catch(() => undefined);
    };
  }

  async lease(holder: string, now: Date, ttlMs: number): Promise<boolean> {
    const rows = await queryRows<{ holder: string }>(this.pool, {
      name: 'petstore_relay_lease',
      text: `INSERT INTO relay_lease (name, holder, expires_at) VALUES ($1, $2, $3)
               ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
                WHERE relay_lease.holder = excluded.holder OR relay_lease.expires_at < $4
             RETURNING holder`,
      values: [RELAY_LEASE, holder, new Date(now.getTime() + ttlMs), now],
    });
    const granted = rows.length === 1;
    // Half the lease, by this process's clock: another's may run ahead of it.
    const wake = () => this.wakers.forEach((waker) => waker());
    eventsNoticeOf(this.pool).leads(granted && this.wakers.size > 0 ? { until: Date.now() + ttlMs / 2, wake } : undefined);
    return granted;
  }

  async release(holder: string): Promise<void> {
    eventsNoticeOf(this.pool).leads(undefined);
    await queryRows(this.pool, {
      name: 'petstore_relay_release',
      text: 'DELETE FROM relay_lease WHERE name = $1 AND holder = $2',
      values: [RELAY_LEASE, holder],
    });
  }
}
