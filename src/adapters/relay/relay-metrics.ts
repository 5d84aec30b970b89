// What /metrics shows of the change events: how many wait in the outbox and for how long, the
// same of the webhook deliveries still to be made, and the deliveries by transport and outcome
// (the relay's passes, and webhooks' attempts).
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Backlog, Clock, EventOutbox, WebhookStore } from '../../domain/index.js';

/** How deliveries are counted. */
export interface DeliveryCounter {
  /** `count` deliveries of `transport` ended with `outcome` (delivered, refused, retrying, failed). */
  count(transport: string, outcome: string, count?: number): void;
}

/** A backlog's two gauges: `<name>_pending` and `<name>_oldest_pending_age_seconds`, read from `backlog` at every scrape. */
interface BacklogGauges {
  readonly name: string;
  /** The help texts of the two gauges. */
  readonly help: { readonly pending: string; readonly age: string };
  readonly backlog: () => Promise<Backlog>;
}

function registerBacklogGauges(registry: Registry, clock: Clock, { name, help, backlog }: BacklogGauges): void {
  // Read once per scrape by both gauges; a storage that is away leaves the last values.
  let reading: Promise<void> | undefined;
  let pending = 0;
  let oldestAgeSeconds = 0;
  const read = (): Promise<void> =>
    (reading ??= backlog()
      .then(({ count, oldest }) => {
        pending = count;
        oldestAgeSeconds = oldest === undefined ? 0 : Math.max(0, (clock.now().getTime() - oldest.getTime()) / 1000);
      })
      .catch(() => undefined)
      .finally(() => (reading = undefined)));
  backlogGauge(registry, `${name}_pending`, help.pending, read, () => pending);
  backlogGauge(registry, `${name}_oldest_pending_age_seconds`, help.age, read, () => oldestAgeSeconds);
}

/** A gauge that shows `value()` once `read()` has settled, at every scrape. */
function backlogGauge(registry: Registry, name: string, help: string, read: () => Promise<void>, value: () => number): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      await read();
      this.set(value());
    },
  });
}

/** Registers the events' metrics in `registry`; the gauges read `outbox` and `webhooks` at every scrape. */
export function registerRelayMetrics(registry: Registry, outbox: EventOutbox, webhooks: WebhookStore, clock: Clock): DeliveryCounter {
  registerBacklogGauges(registry, clock, {
    name: 'petstore_events',
    help: {
      pending: 'Change events recorded in the outbox and not yet relayed',
      age: 'Age of the oldest change event not yet relayed (0 when none waits)',
    },
    backlog: () => outbox.backlog(),
  });
  registerBacklogGauges(registry, clock, {
    name: 'petstore_webhook_deliveries',
    help: {
      pending: 'Webhook deliveries to active endpoints not yet made (due, under way, or waiting for a retry)',
      age: 'Age of the oldest webhook delivery not yet made, from when its event was queued for the endpoint (0 when none waits)',
    },
    backlog: () => webhooks.backlog(),
  });
  const deliveries = new Counter({
    name: 'petstore_event_deliveries_total',
    help:
      'Deliveries of change events, by transport and outcome: nats, webhooks (queued for the endpoints) and in-process ' +
      'count events handed over (delivered, refused); webhook counts attempts to send them (delivered, retrying, failed, ' +
      'superseded: made while their delivery changed, and not recorded)',
    labelNames: ['transport', 'outcome'] as const,
    registers: [registry],
  });
  return { count: (transport, outcome, count = 1) => deliveries.inc({ transport, outcome }, count) };
}
