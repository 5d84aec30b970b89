// The hint that wakes the relays listening on `petstore_events` (PostgresEventOutbox.watch), sent
// by the writers after their commit, in a statement of its own
// (docs/decisions/0030-events-notified-after-the-commit.md). A NOTIFY inside the writing
// transaction would take, at its commit, the lock that every notifying transaction of the
// database queues on, and hold it through the commit's WAL flush: the database's changes
// that record events would then commit one at a time.
import type { Pool } from 'pg';
import { coalesced } from '../shared/coalesced.js';
import { UNFLUSHED } from './unflushed-commit.js';

/** The channel the writers notify and the relays listen on. */
export const EVENTS_CHANNEL = 'petstore_events';

/**
 * PostgreSQL migration 13: the trigger of migration 5, which sent the NOTIFY inside the writing
 * transaction, goes. The relays of a release before still wake on this release's NOTIFY, and poll.
 */
export const EVENTS_TRIGGER_DROPPED_SQL = `DROP TRIGGER events_recorded ON events;
  DROP FUNCTION events_recorded();`;

// Its commit need not wait for a WAL flush: it wrote nothing to keep (unflushed-commit.ts).
const NOTIFY = { name: 'petstore_events_notify', text: `SELECT ${UNFLUSHED}, pg_notify('${EVENTS_CHANNEL}', '')` };

/**
 * How long after a NOTIFY the next one waits. A woken relay starts its round 20 ms later
 * (RELAY_TIMINGS.wakeDelayMs) to gather a burst's events: a hint sent sooner than that after the
 * last adds nothing but a transaction, one per write under load.
 */
export const NOTIFY_SPACING_MS = 10;

const spacing = () => new Promise<void>((resolve) => setTimeout(resolve, NOTIFY_SPACING_MS).unref());

/**
 * Notifies `pool`'s database that events were recorded, one NOTIFY at a time and at most one
 * every {@link NOTIFY_SPACING_MS}: a call while one is under way, or within that time after it,
 * asks for one more after it, so every commit before a call is followed by a NOTIFY sent after
 * that commit, and a burst of writes costs two at most. A NOTIFY that fails is dropped: the hint
 * is not needed for delivery, as every relay also polls.
 */
export class EventsNotice {
  private readonly notify: () => Promise<void>;
  // This process's relay while it holds the lease: until when (Date.now()), and its wake-up.
  private leader: { readonly until: number; readonly wake: () => void } | undefined;

  constructor(pool: Pool) {
    this.notify = coalesced(async () => {
      try {
        await pool.query(NOTIFY);
      } finally {
        await spacing();
      }
    });
  }

  /** Called after a commit that recorded events; answers at once. */
  recorded(): void {
    // The relay that holds the lease is this process's: no other needs waking.
    if (this.leader !== undefined && Date.now() < this.leader.until) this.leader.wake();
    else this.notify().catch(() => undefined);
  }

  /**
   * The outbox of this pool was granted the lease until `until` (Date.now()), for the relay
   * that `wake` wakes; undefined when it was not, or gave it back. No other process takes the
   * lease over before it runs out, so until then the writers wake that relay in the process.
   */
  leads(leader: { readonly until: number; readonly wake: () => void } | undefined): void {
    this.leader = leader;
  }
}

// One per pool: the writers of one database (pets, orders, categories) share the one-at-a-time.
const notices = new WeakMap<Pool, EventsNotice>();

/** The EventsNotice of `pool`. */
export function eventsNoticeOf(pool: Pool): EventsNotice {
  let notice = notices.get(pool);
  if (notice === undefined) {
    notice = new EventsNotice(pool);
    notices.set(pool, notice);
  }
  return notice;
}
