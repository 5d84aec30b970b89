// The events for code in the same process: an app that embeds the store subscribes here and is
// called by the relay, as a broker would be, with no broker.
import type { EventTransport, PetEvent } from '../../domain/index.js';
import { withinTimeLimit } from '../shared/time-limit.js';

/**
 * Called with each event, in outbox order; a rejection, or a promise that has not settled within
 * {@link IN_PROCESS_SUBSCRIBER_TIMEOUT_MS}, makes the relay hand the events on again later.
 */
export type EventSubscriber = (event: PetEvent) => void | Promise<void>;

/**
 * How long a subscriber has to settle with an event (10 s, as a webhook endpoint has to answer)
 * before the relay counts the pass refused and hands the events on again later.
 */
export const IN_PROCESS_SUBSCRIBER_TIMEOUT_MS = 10_000;

/** The subscribers of this process, as a transport of the relay. */
export class InProcessSubscribers implements EventTransport {
  readonly name = 'in-process';
  private readonly subscribers = new Set<EventSubscriber>();

  /**
   * @param timeoutMs how long a subscriber has to settle with an event before the pass is refused.
   * @param wanted called when the first subscriber comes: the relay, which passes a transport that
   *   wanted none at the poll's pace, then hands it events at once.
   */
  constructor(
    private readonly timeoutMs: number = IN_PROCESS_SUBSCRIBER_TIMEOUT_MS,
    private readonly wanted: () => void = () => undefined,
  ) {}

  /** Calls `subscriber` with every event relayed from now on; answers the function that unsubscribes. */
  subscribe(subscriber: EventSubscriber): () => void {
    this.subscribers.add(subscriber);
    if (this.subscribers.size === 1) this.wanted();
    return () => void this.subscribers.delete(subscriber);
  }

  async publish(events: readonly PetEvent[]): Promise<void> {
    for (const event of events)
      for (const subscriber of this.subscribers) {
        const settled = subscriber(event);
        // One that never settles would hold the relay, and a shutdown awaiting its pass, forever.
        if (settled !== undefined) await withinTimeLimit(settled, this.timeoutMs, 'an in-process subscriber');
      }
  }

  /** No subscriber: the relay moves this transport past its events without reading them. */
  wantsNone(): Promise<boolean> {
    return Promise.resolve(this.subscribers.size === 0);
  }
}
