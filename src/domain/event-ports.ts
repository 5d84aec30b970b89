// The ports of change events: the outbox the repositories record into, and the transports the
// relay hands its events to (a broker, webhooks, subscribers in the process).
import type { PetEvent, PetEventType } from './events.js';

/** How many wait (events in an outbox, webhook deliveries), and since when. */
export interface Backlog {
  readonly count: number;
  /** When the oldest of them was recorded; undefined when none waits. */
  readonly oldest: Date | undefined;
}

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

/** A place the relay hands events to, in outbox order. */
export interface EventTransport {
  /** Its name in metrics and logs, such as `nats` or `webhooks`. */
  readonly name: string;
  /**
   * Takes `events` (in outbox order); resolves once they are safe with the transport (a
   * broker's acknowledgement, deliveries queued), rejects when it cannot take them now, and
   * the relay tries them again later, from the first. Must accept an event it has already
   * taken (at-least-once): the event id is the same.
   */
  publish(events: readonly PetEvent[]): Promise<void>;
}

/** Whether an event of `type` is one that `wanted` asks for (none asks for every type). */
export const wantsEvent = (wanted: readonly PetEventType[], type: PetEventType): boolean => wanted.length === 0 || wanted.includes(type);
