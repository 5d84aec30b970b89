// What /metrics shows of the change events: how many wait in the outbox and for how long, for
// every transport and for the one furthest behind, the
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

/**
 * The gauges of each transport's backlog, `petstore_transport_events_pending{transport}` and
 * `petstore_transport_events_oldest_pending_age_seconds{transport}`; answers the read of them all.
 */
function transportBacklogs(registry: Registry, outbox: EventOutbox, clock: Clock, transports: readonly string[]): () => Promise<Backlog[]> {
  let reading: Promise<Backlog[]> | undefined;
  let last: Backlog[] = transports.map(() => ({ count: 0, oldest: undefined }));
  // Read once per scrape by every gauge; a storage that is away leaves the last values.
  const read = (): Promise<Backlog[]> =>
    (reading ??= Promise.all(transports.map((transport) => outbox.backlog(transport)))
      .then((backlogs) => (last = backlogs))
      .catch(() => last)
      .finally(() => (reading = undefined)));
  const labelled = (name: string, help: string, value: (backlog: Backlog) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['transport'] as const,
      registers: [registry],
      async collect() {
        const backlogs = await read();
        transports.forEach((transport, index) => this.set({ transport }, value(backlogs[index]!)));
      },
    });
  labelled('petstore_transport_events_pending', 'Change events recorded in the outbox and not yet taken by the transport', (b) => b.count);
  labelled(
    'petstore_transport_events_oldest_pending_age_seconds',
    'Age of the oldest change event not yet taken by the transport (0 when none waits)',
    ({ oldest }) => (oldest === undefined ? 0 : Math.max(0, (clock.now().getTime() - oldest.getTime()) / 1000)),
  );
  return read;
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

/** Registers the events' metrics in `registry`; the gauges read `outbox` (for each of `transports`) and `webhooks` at every scrape. */
export function registerRelayMetrics(
  registry: Registry,
  outbox: EventOutbox,
  webhooks: WebhookStore,
  clock: Clock,
  transports: readonly string[],
): DeliveryCounter {
  const backlogs = transportBacklogs(registry, outbox, clock, transports);
  // The laggard's backlog holds every other's: positions are prefixes of one order.
  registerBacklogGauges(registry, clock, {
    name: 'petstore_events',
    help: {
      pending: 'Change events recorded in the outbox and not yet taken by every transport',
      age: 'Age of the oldest change event not yet taken by every transport (0 when none waits)',
    },
    backlog: async () => {
      const all = await backlogs();
      const count = Math.max(0, ...all.map((backlog) => backlog.count));
      const oldest = all.map((backlog) => backlog.oldest).filter((time) => time !== undefined);
      return { count, oldest: oldest.length === 0 ? undefined : new Date(Math.min(...oldest.map((time) => time.getTime()))) };
    },
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
