// EventOutbox in PostgreSQL (migration 5): PostgresPetRepository records each event in its
// change's statement; the relay reads them from here. A trigger NOTIFYs `petstore_events` at
// every commit that recorded one, so relays listening on any instance wake at once.
import pg, { type Pool } from 'pg';
import type { EventOutbox, OutboxBacklog, PetEvent } from '../../domain/index.js';
import { eventOfRow, type OutboxRow, RELAY_LEASE } from '../shared/outbox-rows.js';
import { eventDataFromJsonb } from './jsonb-pet.js';
import { queryRows } from './postgres-errors.js';

/** The channel the outbox's trigger notifies. */
export const EVENTS_CHANNEL = 'petstore_events';

/** The outbox of the database of a pool opened by openPostgresPool (which migrates it). */
export class PostgresEventOutbox implements EventOutbox {
  constructor(private readonly pool: Pool) {}

  async pending(limit: number): Promise<readonly PetEvent[]> {
    const rows = await queryRows<OutboxRow>(this.pool, {
      name: 'petstore_events_waiting',
      text: 'SELECT sequence, id, type, pet_id, data, time FROM events WHERE relayed_at IS NULL ORDER BY sequence LIMIT $1',
      values: [limit],
    });
    return rows.map((row) => {
      const event = eventOfRow(row);
      return { ...event, data: eventDataFromJsonb(event.data) };
    });
  }

  async markRelayed(sequences: readonly number[], at: Date): Promise<void> {
    await queryRows(this.pool, {
      name: 'petstore_events_relayed',
      text: 'UPDATE events SET relayed_at = $2 WHERE relayed_at IS NULL AND sequence = ANY($1::bigint[])',
      values: [sequences, at],
    });
  }

  async prune(before: Date): Promise<number> {
    const rows = await queryRows<{ sequence: string }>(this.pool, {
      name: 'petstore_events_prune',
      text: 'DELETE FROM events WHERE relayed_at IS NOT NULL AND relayed_at < $1 RETURNING sequence',
      values: [before],
    });
    return rows.length;
  }

  async backlog(): Promise<OutboxBacklog> {
    const [row] = await queryRows<{ count: string; oldest: Date | null }>(this.pool, {
      name: 'petstore_events_backlog',
      text: 'SELECT count(*) AS count, min(time) AS oldest FROM events WHERE relayed_at IS NULL',
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
    return async () => {
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
    return rows.length === 1;
  }

  async release(holder: string): Promise<void> {
    await queryRows(this.pool, {
      name: 'petstore_relay_release',
      text: 'DELETE FROM relay_lease WHERE name = $1 AND holder = $2',
      values: [RELAY_LEASE, holder],
    });
  }
}
