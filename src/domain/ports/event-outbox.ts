// The outbox the repositories record events into, in their changes' transactions, as the relay
// reads it: each transport from a position of its own, so that none waits for another.
import type { PetEvent } from '../events.js';
import type { Backlog } from './backlog.js';

/** How many events wait in an outbox, and since when. */
export type OutboxBacklog = Backlog;

/** What one transport reads: its next events, in outbox order, and the position it reaches once it has taken them all. */
export interface OutboxBatch {
  readonly events: readonly PetEvent[];
  /** The transport's position after these events (its position as it was when there are none): what {@link EventOutbox.markTaken} records. */
  readonly through: number;
}

/**
 * The events recorded with their changes (by the PetRepository of the same storage, in the
 * change's transaction), as the relay reads them. Every transport (named as in metrics and
 * logs: `webhooks`, `nats`, `in-process`) has a position of its own in one order of the events,
 * the outbox order, which keeps each pet's events in the order their changes committed. A
 * transport with no position yet starts at the start: it gets every event the outbox still holds.
 */
export interface EventOutbox {
  /** At most `limit` events after `transport`'s position, oldest first (outbox order). */
  read(transport: string, limit: number): Promise<OutboxBatch>;
  /** Moves `transport`'s position to `through` (a batch's, as {@link read} answered it) at `at`; never back. */
  markTaken(transport: string, through: number, at: Date): Promise<void>;
  /** The position of the newest event any transport could read now: marked taken, the transport is past them all, unread. */
  newestPosition(): Promise<number>;
  /**
   * Deletes the events that every one of `transports` had taken before `before` (none when one
   * of them has taken nothing that long ago); answers how many. Events that wait are kept.
   */
  prune(before: Date, transports: readonly string[]): Promise<number>;
  /** What waits for `transport`, for the metrics. */
  backlog(transport: string): Promise<OutboxBacklog>;
  /**
   * Calls `wake` whenever an event may have been recorded: in this process, or in any
   * process where the storage can tell (PostgreSQL's NOTIFY). Answers the function that stops.
   * A hint only: the relay polls as well.
   */
  watch(wake: () => void): Promise<() => Promise<void>>;
  /**
   * Takes, or renews, the relay's lease for `holder` until `now + ttlMs`: true while `holder`
   * holds it. One relay is active per database; another takes over once a lease runs out.
   */
  lease(holder: string, now: Date, ttlMs: number): Promise<boolean>;
  /**
   * Gives up the relay's lease if `holder` holds it, so that another relay takes it at once
   * rather than once it runs out; does nothing when another holds it, or none does.
   */
  release(holder: string): Promise<void>;
}
