// EventOutbox in the service's SQLite database (migration 5): SqlitePetRepository records each
// event with its change, in the change's transaction; the relay reads them from here. A relay
// in this process is woken at once; one in another process on the file polls.
import { randomUUID } from 'node:crypto';
import type { Database, Statement } from 'better-sqlite3';
import type { EventOutbox, OutboxBacklog, PetChange, PetEvent } from '../../domain/index.js';
import { eventOfRow, type OutboxRow, RELAY_LEASE } from '../shared/outbox-rows.js';

const EVENT_COLUMNS = 'sequence, id, type, pet_id, data, time';

/** The outbox of a SQLite database opened by openSqliteDatabase (which migrates it). */
export class SqliteEventOutbox implements EventOutbox {
  private readonly insert: Statement<[string, string, number, string, number]>;
  private readonly selectWaiting: Statement<[number], OutboxRow>;
  private readonly setRelayed: Statement<[number, string]>;
  private readonly deleteRelayed: Statement<[number]>;
  private readonly countWaiting: Statement<[], { count: number; oldest: number | null }>;
  private readonly takeLease: Statement<[string, string, number, number], { holder: string }>;
  private readonly wakers = new Set<() => void>();

  constructor(db: Database) {
    this.insert = db.prepare('INSERT INTO events (id, type, pet_id, data, time) VALUES (?, ?, ?, ?, ?)');
    this.selectWaiting = db.prepare(`SELECT ${EVENT_COLUMNS} FROM events WHERE relayed_at IS NULL ORDER BY sequence LIMIT ?`);
    this.setRelayed = db.prepare(
      'UPDATE events SET relayed_at = ? WHERE relayed_at IS NULL AND sequence IN (SELECT value FROM json_each(?))',
    );
    this.deleteRelayed = db.prepare('DELETE FROM events WHERE relayed_at IS NOT NULL AND relayed_at < ?');
    this.countWaiting = db.prepare('SELECT count(*) AS count, min(time) AS oldest FROM events WHERE relayed_at IS NULL');
    // Taken when free or run out, renewed by its holder; RETURNING answers a row only then.
    this.takeLease = db.prepare(
      `INSERT INTO relay_lease (name, holder, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
          WHERE relay_lease.holder = excluded.holder OR relay_lease.expires_at < ?
       RETURNING holder`,
    );
  }

  /**
   * Records `change` as an event. Called by the repository inside the change's transaction, so
   * the event exists if and only if the change commits; a relay woken here reads it after the
   * commit, since the synchronous transaction ends before any callback runs.
   */
  record(change: PetChange): void {
    this.insert.run(randomUUID(), change.type, change.petId, JSON.stringify(change.data), Date.now());
    for (const wake of this.wakers) setImmediate(wake);
  }

  async pending(limit: number): Promise<readonly PetEvent[]> {
    return this.selectWaiting.all(limit).map(eventOfRow);
  }

  async markRelayed(sequences: readonly number[], at: Date): Promise<void> {
    this.setRelayed.run(at.getTime(), JSON.stringify(sequences));
  }

  async prune(before: Date): Promise<number> {
    return this.deleteRelayed.run(before.getTime()).changes;
  }

  async backlog(): Promise<OutboxBacklog> {
    const { count, oldest } = this.countWaiting.get()!;
    return { count, oldest: oldest === null ? undefined : new Date(oldest) };
  }

  async watch(wake: () => void): Promise<() => Promise<void>> {
    this.wakers.add(wake);
    return async () => void this.wakers.delete(wake);
  }

  async lease(holder: string, now: Date, ttlMs: number): Promise<boolean> {
    return this.takeLease.get(RELAY_LEASE, holder, now.getTime() + ttlMs, now.getTime()) !== undefined;
  }
}
