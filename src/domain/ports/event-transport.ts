// A place the relay hands events to: a broker, webhooks, subscribers in the process.
import type { PetEvent } from '../events.js';

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
  /**
   * Whether it would take every event waiting now and do nothing with it (no subscriber, no
   * active endpoint): the relay then moves its position past them without reading them. An
   * answer that fails counts as no.
   */
  wantsNone?(): Promise<boolean>;
}
