// What waits for a transport or an endpoint, as the metrics show it.

/** How many wait (events in an outbox, webhook deliveries), and since when. */
export interface Backlog {
  readonly count: number;
  /** When the oldest of them was recorded; undefined when none waits. */
  readonly oldest: Date | undefined;
}
