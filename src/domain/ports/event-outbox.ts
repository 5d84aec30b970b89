// The outbox the repositories record events into, in their changes' transactions, as the relay reads it.
import type { PetEvent } from '../events.js';
import type { Backlog } from './backlog.js';

/** How many events wait in an outbox, and since when. */
export type OutboxBacklog = Backlog;

/**
 * The events recorded with their changes (by the PetRepository of the same storage, in the
 * change's transaction), as the relay reads them.
 */
export interface EventOutbox {
  /** At most `limit` events not yet relayed, oldest first (by sequence). */
  pending(limit: number): Promise<readonly PetEvent[]>;
  /**
   * Marks the events of these sequences relayed at `at`: a batch that `pending` answered, in
   * full (an adapter may keep only how far the relay has come).
   */
  markRelayed(sequences: readonly number[], at: Date): Promise<void>;
  /** Deletes the events relayed before `before`; answers how many. */
  prune(before: Date): Promise<number>;
  /** What waits, for the metrics. */
  backlog(): Promise<OutboxBacklog>;
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
