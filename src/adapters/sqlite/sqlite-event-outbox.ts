// EventOutbox in the service's SQLite database (migrations 5, 7 and 11): SqlitePetRepository
// records each event with its change, in the change's transaction; the relay reads them here. A relay
// in this process is woken at once; one in another process on the file polls.
import { randomUUID } from 'node:crypto';
import type { Database, Statement, Transaction } from 'better-sqlite3';
import type { EventOutbox, OutboxBacklog, OutboxBatch, PetChange, TraceContext } from '../../domain/index.js';
import { eventOfRow, OUTBOX_COLUMNS, type OutboxRow, RELAY_LEASE } from '../shared/outbox-rows.js';
import { columnsOfTraceContext, type CurrentTraceContext } from '../shared/trace-context.js';
import { type GroupCommit, groupCommit } from './group-commit.js';

/** Where @transport stands: the last sequence it took (0, the start, for one that has taken none). */
const POSITION = `coalesce((SELECT max(through) FROM outbox_marks WHERE transport = @transport), 0)`;

/**
 * The outbox of a SQLite database opened by openSqliteDatabase (which migrates it). Events
 * are appended in commit order (one writer at a time), so what a transport has taken is a
 * prefix, kept as its marks (migrations 7 and 11): an event is written once and never rewritten.
 */
export class SqliteEventOutbox implements EventOutbox {
  private readonly insert: Statement<[string, string, number, string, number, string | null, string | null]>;
  private readonly selectPosition: Statement<[{ transport: string }], number>;
  private readonly selectNewest: Statement<[], number>;
  private readonly selectWaiting: Statement<[{ transport: string; limit: number }], OutboxRow>;
  private readonly addMark: Statement<[{ transport: string; through: number; at: number }]>;
  private readonly takenBefore: Statement<[{ transports: string; before: number }], number | null>;
  private readonly deleteThrough: Statement<[number]>;
  private readonly deleteMarksBefore: Statement<[number]>;
  private readonly countWaiting: Statement<[{ transport: string }], { count: number; oldest: number | null }>;
  private readonly takeLease: Statement<[string, string, number, number], { holder: string }>;
  private readonly dropLease: Statement<[string, string]>;
  private readonly pruneBefore: Transaction<(before: number, transports: readonly string[]) => number>;
  private readonly commit: GroupCommit;
  private readonly wakers = new Set<() => void>();
  private wakeQueued = false;
  /** The trace context of the write under way, captured when it was asked for (see inCallersTrace). */
  private writing: TraceContext | undefined;

  /** @param currentTrace the trace context each change records with its event; none when absent (tracing off). */
  constructor(
    db: Database,
    private readonly currentTrace?: CurrentTraceContext,
  ) {
    this.commit = groupCommit(db);
    this.insert = db.prepare('INSERT INTO events (id, type, pet_id, data, time, traceparent, tracestate) VALUES (?, ?, ?, ?, ?, ?, ?)');
    this.selectPosition = db.prepare<[{ transport: string }], number>(`SELECT ${POSITION}`).pluck();
    this.selectNewest = db.prepare<[], number>('SELECT coalesce(max(sequence), 0) FROM events').pluck();
    this.selectWaiting = db.prepare(`SELECT ${OUTBOX_COLUMNS} FROM events WHERE sequence > ${POSITION} ORDER BY sequence LIMIT @limit`);
    // A mark never moves a position back (a lease taken over mid-pass may mark late).
    this.addMark = db.prepare(
      `INSERT OR IGNORE INTO outbox_marks (transport, through, at) SELECT @transport, @through, @at WHERE @through > ${POSITION}`,
    );
    // How far every one of the transports had come before the time: the least of their last marks then.
    this.takenBefore = db
      .prepare<[{ transports: string; before: number }], number | null>(
        `SELECT min(coalesce((SELECT max(through) FROM outbox_marks WHERE transport = t.value AND at < @before), 0))
           FROM json_each(@transports) AS t`,
      )
      .pluck();
    this.deleteThrough = db.prepare('DELETE FROM events WHERE sequence <= ?');
    // Each transport's newest mark stays, whatever its age: it is its position.
    this.deleteMarksBefore = db.prepare(
      `DELETE FROM outbox_marks WHERE at < ? AND through < (SELECT max(through) FROM outbox_marks AS newest WHERE newest.transport = outbox_marks.transport)`,
    );
    this.countWaiting = db.prepare(`SELECT count(*) AS count, min(time) AS oldest FROM events WHERE sequence > ${POSITION}`);
    this.pruneBefore = db.transaction((before: number, transports: readonly string[]): number => {
      const through = this.takenBefore.get({ transports: JSON.stringify(transports), before }) ?? 0;
      const pruned = through === 0 ? 0 : this.deleteThrough.run(through).changes;
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
   * commit, since the synchronous transaction ends before any callback runs. The event keeps
   * the trace context of the work under way, or of the write inCallersTrace made.
   */
  record(change: PetChange): void {
    const trace = this.writing ?? this.currentTrace?.();
    this.insert.run(randomUUID(), change.type, change.petId, JSON.stringify(change.data), Date.now(), ...columnsOfTraceContext(trace));
    // One wake-up for all the events of a turn (a group commit records many).
    if (this.wakeQueued || this.wakers.size === 0) return;
    this.wakeQueued = true;
    setImmediate(() => {
      this.wakeQueued = false;
      for (const wake of this.wakers) wake();
    });
  }

  /**
   * `write`, made to record its events with the trace context of its caller, now: a group
   * commit runs it later, in the turn's transaction, where the work under way is another's.
   */
  inCallersTrace<O>(write: () => O): () => O {
    const trace = this.currentTrace?.();
    if (trace === undefined) return write;
    return () => {
      this.writing = trace;
      try {
        return write();
      } finally {
        this.writing = undefined;
      }
    };
  }

  async read(transport: string, limit: number): Promise<OutboxBatch> {
    const events = this.selectWaiting.all({ transport, limit }).map(eventOfRow);
    return { events, through: events.at(-1)?.sequence ?? this.selectPosition.get({ transport })! };
  }

  /** One mark per batch; it joins the turn's group commit: under load, the COMMIT of the changes beside it. */
  async markTaken(transport: string, through: number, at: Date): Promise<void> {
    await this.commit(() => this.addMark.run({ transport, through, at: at.getTime() }));
  }

  async newestPosition(): Promise<number> {
    return this.selectNewest.get()!;
  }

  async prune(before: Date, transports: readonly string[]): Promise<number> {
    return this.pruneBefore(before.getTime(), transports);
  }

  async backlog(transport: string): Promise<OutboxBacklog> {
    const { count, oldest } = this.countWaiting.get({ transport })!;
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
