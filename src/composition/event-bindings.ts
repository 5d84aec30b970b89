// The change events' parts: the transports the relay hands events to (subscribers in this
// process always; NATS JetStream when configured), the metrics, and the relay itself, which a
// serving process starts (every worker and instance starts one; the lease keeps one active).
import { randomUUID } from 'node:crypto';
import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { type DeliveryCounter, registerRelayMetrics } from '../adapters/relay/relay-metrics.js';
import { type RunningEventRelay, startEventRelay } from '../adapters/relay/event-relay.js';
import { IN_PROCESS_SUBSCRIBER_TIMEOUT_MS, InProcessSubscribers } from '../adapters/relay/in-process-subscribers.js';
import { tracedPasses, tracedPublications } from '../adapters/relay/traced-relay.js';
import type { Tracing } from '../adapters/shared/tracing.js';
import type { WebhookDispatcher } from '../adapters/webhooks/webhook-dispatcher.js';
import { webhooksTransport } from '../adapters/webhooks/webhooks-transport.js';
import { describeFault } from '../domain/fault-description.js';
import { describeNats } from '../adapters/nats/nats-url.js';
import { EVENTS_DEFAULTS } from '../config/events-config.js';
import { type Clock, type EventOutbox, type EventTransport, relayEvents, type RelayPass, type WebhookStore } from '../domain/index.js';
import { type ContainerOptions, EVENTS_OPTION_DEFAULTS, type EventsOptions } from './container-options.js';
import { TOKENS } from './tokens.js';

/** Starts the relay of the container's outbox; undefined when events are off. */
export type StartEventRelay = () => Promise<RunningEventRelay | undefined>;

const RELAY_BATCH_SIZE = 500;

/** A pass's log line: one per refused delivery, naming its first event, never a secret. */
const reportPass = (logger: Logger, counter: DeliveryCounter) => (pass: RelayPass) => {
  if (pass.outcome === 'relayed') {
    if (pass.events.length > 0) counter.count(pass.transport, 'delivered', pass.events.length);
    return;
  }
  counter.count(pass.transport, 'refused', pass.events.length);
  logger.warn(
    { transport: pass.transport, eventId: pass.events[0]?.id, events: pass.events.length, fault: describeFault(pass.fault) },
    'events not delivered: the relay tries them again later',
  );
};

/** The relay a transport tells that it is back, once the relay has started. */
interface RelayOfTransports {
  current: RunningEventRelay | undefined;
}

/**
 * The NATS JetStream transport of `nats`, whose outages are logged once each; loaded only when
 * configured. Its end wakes the relay's NATS passes at once, not at the back-off's next try.
 */
async function openNats(
  { url, stream = EVENTS_DEFAULTS.PETSTORE_NATS_STREAM }: NonNullable<EventsOptions['nats']>,
  source: string,
  logger: Logger,
  relay: RelayOfTransports,
): Promise<EventTransport & { close(): Promise<void> }> {
  const { JetStreamThreadTransport } = await import('../adapters/nats/jetstream-thread-transport.js');
  const described = describeNats(url, stream);
  return JetStreamThreadTransport.open({
    url,
    stream,
    source,
    events: {
      lost: (fault) =>
        logger.error({ nats: described, fault: describeFault(fault) }, 'NATS unreachable: events wait in the outbox until it answers'),
      restored: () => {
        logger.info({ nats: described }, 'NATS answers again: the outbox is relayed');
        relay.current?.retry('nats');
      },
    },
  });
}

/** The names of the transports, as the relay binds them: webhooks, NATS when configured, the subscribers. */
const transportNames = (enabled: boolean, nats: EventsOptions['nats']): readonly string[] =>
  enabled && nats !== undefined ? ['webhooks', 'nats', 'in-process'] : ['webhooks', 'in-process'];

/** Binds the events' transports, metrics registry and relay. */
export function bindEvents(container: Container, { events = {}, logger }: ContainerOptions): void {
  const { enabled, retentionHours, source, nats } = { ...EVENTS_OPTION_DEFAULTS, ...events };
  container.bind<Registry>(TOKENS.MetricsRegistry).toConstantValue(new Registry());
  const relay: RelayOfTransports = { current: undefined };
  container
    .bind<InProcessSubscribers>(TOKENS.EventSubscribers)
    .toConstantValue(new InProcessSubscribers(IN_PROCESS_SUBSCRIBER_TIMEOUT_MS, () => relay.current?.retry('in-process')));
  container
    .bind<DeliveryCounter>(TOKENS.DeliveryCounter)
    .toResolvedValue(
      (registry: Registry, outbox: EventOutbox, webhooks: WebhookStore, clock: Clock) =>
        registerRelayMetrics(registry, outbox, webhooks, clock, transportNames(enabled, nats)),
      [TOKENS.MetricsRegistry, TOKENS.EventOutbox, TOKENS.WebhookStore, TOKENS.Clock],
    );
  bindEventTransports(container, { enabled, source, nats, logger, relay });
  bindEventRelay(container, enabled, retentionHours, relay);
}

function bindEventTransports(
  container: Container,
  {
    enabled,
    source,
    nats,
    logger,
    relay,
  }: { enabled: boolean; source: string; nats: EventsOptions['nats']; logger: Logger; relay: RelayOfTransports },
): void {
  let closeTransports = async (): Promise<void> => {};
  // Each reads the outbox from its own position, at its own pace (the relay's lanes).
  container
    .bind<readonly EventTransport[]>(TOKENS.EventTransports)
    .toResolvedValue(
      async (subscribers: InProcessSubscribers, webhooks: WebhookStore, clock: Clock, tracing: Tracing | undefined) => {
        const queued = webhooksTransport(webhooks, clock, source);
        if (!enabled || nats === undefined) return [queued, subscribers];
        // NATS away at start is no failure: the transport reconnects, and the outbox waits.
        const broker = await openNats(nats, source, logger, relay);
        closeTransports = () => broker.close();
        return [queued, tracing === undefined ? broker : tracedPublications(tracing, broker, 'nats'), subscribers];
      },
      [TOKENS.EventSubscribers, TOKENS.WebhookStore, TOKENS.Clock, TOKENS.Tracing],
    )
    .onDeactivation(() => closeTransports());
}

function bindEventRelay(container: Container, enabled: boolean, retentionHours: number, transportsTell: RelayOfTransports): void {
  container.bind<StartEventRelay>(TOKENS.EventRelay).toResolvedValue(
    (
      outbox: EventOutbox,
      transports: readonly EventTransport[],
      clock: Clock,
      logger: Logger,
      counter: DeliveryCounter,
      dispatcher: WebhookDispatcher,
      webhooks: WebhookStore,
      tracing: Tracing | undefined,
    ) =>
      async () => {
        if (!enabled) return undefined;
        const relay = await startEventRelay({
          outbox,
          relays: transports.map((transport) => {
            const passes = relayEvents(outbox, transport, clock, RELAY_BATCH_SIZE);
            return { transport: transport.name, relay: tracing === undefined ? passes : tracedPasses(tracing, passes) };
          }),
          clock,
          holder: `${process.pid}-${randomUUID()}`,
          retentionMs: retentionHours * 3_600_000,
          report: {
            pass: reportPass(logger, counter),
            fault: (fault) =>
              // Also at a stop: a last pass that failed, a round that outlasted the stop's wait, a lease not released.
              logger.error(
                { fault: describeFault(fault) },
                'the event relay could not finish its work on the outbox; events not marked relayed wait there for a later round',
              ),
          },
          // The round only starts the webhook deliveries due: their answers, slow or never
          // coming, hold neither the relay's next pass nor the other endpoints' deliveries.
          duties: [async () => void (await dispatcher.startDue())],
          // Finished webhook deliveries are kept as long as the events they carried.
          prunes: [(before) => webhooks.prune(before)],
        });
        transportsTell.current = relay;
        return {
          wake: () => relay.wake(),
          retry: (transport) => relay.retry(transport),
          // Once the relay has stopped, no attempt starts; those under way end within their timeout.
          stop: async () => {
            transportsTell.current = undefined;
            await relay.stop();
            await dispatcher.stop();
          },
        };
      },
    [
      TOKENS.EventOutbox,
      TOKENS.EventTransports,
      TOKENS.Clock,
      TOKENS.Logger,
      TOKENS.DeliveryCounter,
      TOKENS.WebhookDispatcher,
      TOKENS.WebhookStore,
      TOKENS.Tracing,
    ],
  );
}
