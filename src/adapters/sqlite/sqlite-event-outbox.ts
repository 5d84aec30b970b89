// EventOutbox in the service's SQLite database (migrations 5 and 7): SqlitePetRepository
// records each event with its change, in the change's transaction; the relay reads them here. A relay
// in this process is woken at once; one in another process on the file polls.
import { randomUUID } from 'node:crypto';
import type { Database, Statement, Transaction } from 'better-sqlite3';
import type { EventOutbox, OutboxBacklog, PetChange, PetEvent } from '../../domain/index.js';
import { eventOfRow, type OutboxRow, RELAY_LEASE } from '../shared/outbox-rows.js';
import { type GroupCommit, groupCommit } from './group-commit.js';

const EVENT_COLUMNS = 'sequence, id, type, pet_id, data, time';
/** Where the relay stands: the last sequence it handed on (0 before its first pass). */
const RELAYED_THROUGH = '(SELECT coalesce(max(through), 0) FROM relay_marks)';

/**
 * The outbox of a SQLite database opened by openSqliteDatabase (which migrates it). Events
 * are appended in commit order (one writer at a time), so the relayed ones are a prefix, kept
 * as marks (migration 7): an event is written once and never rewritten.
 */
export class SqliteEventOutbox implements EventOutbox {
  private readonly insert: Statement<[string, string, number, string, number]>;
  private readonly selectWaiting: Statement<[number], OutboxRow>;
  private readonly addMark: Statement<[{ through: number; at: number }]>;
  private readonly lastMarkBefore: Statement<[number], number | null>;
  private readonly deleteThrough: Statement<[number]>;
  private readonly deleteMarksBefore: Statement<[number]>;
  private readonly countWaiting: Statement<[], { count: number; oldest: number | null }>;
  private readonly takeLease: Statement<[string, string, number, number], { holder: string }>;
  private readonly dropLease: Statement<[string, string]>;
  private readonly pruneBefore: Transaction<(before: number) => number>;
  private readonly commit: GroupCommit;
  private readonly wakers = new Set<() => void>();
  private wakeQueued = false;

  constructor(db: Database) {
    this.commit = groupCommit(db);
    this.insert = db.prepare('INSERT INTO events (id, type, pet_id, data, time) VALUES (?, ?, ?, ?, ?)');
    this.selectWaiting = db.prepare(`SELECT ${EVENT_COLUMNS} FROM events WHERE sequence > ${RELAYED_THROUGH} ORDER BY sequence LIMIT ?`);
    // A mark never moves the position back (a lease taken over mid-pass may mark late).
    this.addMark = db.prepare(`INSERT OR IGNORE INTO relay_marks (through, at) SELECT @through, @at WHERE @through > ${RELAYED_THROUGH}`);
    this.lastMarkBefore = db.prepare<[number], number | null>('SELECT max(through) FROM relay_marks WHERE at < ?').pluck();
    this.deleteThrough = db.prepare('DELETE FROM events WHERE sequence <= ?');
    // The newest mark stays, whatever its age: it is the relay's position.
    this.deleteMarksBefore = db.prepare(`DELETE FROM relay_marks WHERE at < ? AND through < ${RELAYED_THROUGH}`);
    this.countWaiting = db.prepare(`SELECT count(*) AS count, min(time) AS oldest FROM events WHERE sequence > ${RELAYED_THROUGH}`);
    this.pruneBefore = db.transaction((before: number): number => {
      const through = this.lastMarkBefore.get(before) ?? null;
      const pruned = through === null ? 0 : this.deleteThrough.run(through).changes;
      this.deleteMarksBefore.run(before);
      return pruned;
    });
    // Taken when free or run out, renewed by its holder; RETURNING answers a row only then.
    this.takeLease = db.prepare(
      `INSERT INTO relay_lease (name, holder, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
          WHERE relay_lease.holder = excluded.holder OR relay_lease.expires_at < ?
       RETURNING holder`,
    );
    this.dropLease = db.prepare('DELETE FROM relay_lease WHERE name = ? AND holder = ?');
  }

  /**
   * Records `change` as an event. Called by the repository inside the change's transaction, so
   * the event exists if and only if the change commits; a relay woken here reads it after the
   * commit, since the synchronous transaction ends before any callback runs.
   */
  record(change: PetChange): void {
    this.insert.run(randomUUID(), change.type, change.petId, JSON.stringify(change.data), Date.now());
    // One wake-up for all the events of a turn (a group commit records many).
    if (this.wakeQueued || this.wakers.size === 0) return;
    this.wakeQueued = true;
    setImmediate(() => {
      this.wakeQueued = false;
      for (const wake of this.wakers) wake();
    });
  }

  async pending(limit: number): Promise<readonly PetEvent[]> {
    return this.selectWaiting.all(limit).map(eventOfRow);
  }

  /**
   * `sequences` are a batch that pending answered (a prefix of what waits): one mark covers
   * them. It joins the turn's group commit: under load, the COMMIT of the changes beside it.
   */
  async markRelayed(sequences: readonly number[], at: Date): Promise<void> {
    if (sequences.length === 0) return;
    const through = Math.max(...sequences);
    await this.commit(() => this.addMark.run({ through, at: at.getTime() }));
  }

  async prune(before: Date): Promise<number> {
    return this.pruneBefore(before.getTime());
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

  async release(holder: string): Promise<void> {
    this.dropLease.run(RELAY_LEASE, holder);
  }
}
