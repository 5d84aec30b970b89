// What /metrics shows of the change events: how many wait in the outbox and for how long, and
// the deliveries by transport and outcome (the relay's passes, and webhooks' attempts).
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Clock, EventOutbox } from '../../domain/index.js';

/** How deliveries are counted. */
export interface DeliveryCounter {
  /** `count` deliveries of `transport` ended with `outcome` (delivered, refused, retrying, failed). */
  count(transport: string, outcome: string, count?: number): void;
}

/** Registers the events' metrics in `registry`; the gauges read `outbox` at every scrape. */
export function registerRelayMetrics(registry: Registry, outbox: EventOutbox, clock: Clock): DeliveryCounter {
  // Read once per scrape by both gauges; a storage that is away leaves the last values.
  let reading: Promise<void> | undefined;
  let pending = 0;
  let oldestAgeSeconds = 0;
  const read = (): Promise<void> =>
    (reading ??= outbox
      .backlog()
      .then(({ count, oldest }) => {
        pending = count;
        oldestAgeSeconds = oldest === undefined ? 0 : Math.max(0, (clock.now().getTime() - oldest.getTime()) / 1000);
      })
      .catch(() => undefined)
      .finally(() => (reading = undefined)));
  new Gauge({
    name: 'petstore_events_pending',
    help: 'Change events recorded in the outbox and not yet relayed',
    registers: [registry],
    async collect() {
      await read();
      this.set(pending);
    },
  });
  new Gauge({
    name: 'petstore_events_oldest_pending_age_seconds',
    help: 'Age of the oldest change event not yet relayed (0 when none waits)',
    registers: [registry],
    async collect() {
      await read();
      this.set(oldestAgeSeconds);
    },
  });
  const deliveries = new Counter({
    name: 'petstore_event_deliveries_total',
    help:
      'Deliveries of change events, by transport and outcome: nats, webhooks (queued for the endpoints) and in-process ' +
      'count events handed over (delivered, refused); webhook counts attempts to send them (delivered, retrying, failed)',
    labelNames: ['transport', 'outcome'] as const,
    registers: [registry],
  });
  return { count: (transport, outcome, count = 1) => deliveries.inc({ transport, outcome }, count) };
}
