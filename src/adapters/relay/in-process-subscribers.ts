// The events for code in the same process: an app that embeds the store subscribes here and is
// called by the relay, as a broker would be, with no broker.
import type { EventTransport, PetEvent } from '../../domain/index.js';

/** Called with each event, in outbox order; a rejection makes the relay hand the events on again later. */
export type EventSubscriber = (event: PetEvent) => void | Promise<void>;

/** The subscribers of this process, as a transport of the relay. */
export class InProcessSubscribers implements EventTransport {
  readonly name = 'in-process';
  private readonly subscribers = new Set<EventSubscriber>();

  /** Calls `subscriber` with every event relayed from now on; answers the function that unsubscribes. */
  subscribe(subscriber: EventSubscriber): () => void {
    this.subscribers.add(subscriber);
    return () => void this.subscribers.delete(subscriber);
  }

  async publish(events: readonly PetEvent[]): Promise<void> {
    for (const event of events) for (const subscriber of this.subscribers) await subscriber(event);
  }
}
