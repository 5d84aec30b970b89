// The webhook services on the WebhookStore that port-bindings.ts chose: the admin of
// `petstore webhooks`, and the dispatcher that the relay's loop drives (startDue every second
// or so, on the process that holds the relay's lease). Each failed attempt is one log line,
// with the event id and the endpoint id: never the secret, the URL or the body.
import type { Container } from 'inversify';
import type { Logger } from 'pino';
import type { DeliveryCounter } from '../adapters/relay/relay-metrics.js';
import type { Tracing } from '../adapters/shared/tracing.js';
import { describeFault } from '../domain/fault-description.js';
import { WebhookDispatcher, type WebhookOutcomes } from '../adapters/webhooks/webhook-dispatcher.js';
import { cryptoWebhookSecretGenerator } from '../adapters/webhooks/webhook-secret.js';
import { type Clock, type WebhookAdmin, webhookAdmin, type WebhookSecretGenerator, type WebhookStore } from '../domain/index.js';
import { TOKENS } from './tokens.js';

/**
 * The outcomes of webhook attempts, counted in `petstore_event_deliveries_total{transport="webhook"}`
 * and logged: one line per failed attempt, at `warn` while it will be retried, `error` once given up.
 */
export const reportedWebhookOutcomes = (logger: Logger, counter: DeliveryCounter): WebhookOutcomes => ({
  delivered: () => counter.count('webhook', 'delivered'),
  retrying: (eventId, endpointId, attempt, nextAttemptAt, reason) => {
    counter.count('webhook', 'retrying');
    logger.warn(
      { eventId, endpointId, attempt, nextAttemptAt: nextAttemptAt.toISOString(), reason },
      'webhook attempt failed; it will be retried',
    );
  },
  failed: (eventId, endpointId, reason) => {
    counter.count('webhook', 'failed');
    logger.error({ eventId, endpointId, reason }, 'webhook delivery failed; it will not be retried');
  },
  unrecorded: (eventId, endpointId, fault) =>
    logger.error(
      { eventId, endpointId, fault: describeFault(fault) },
      'webhook attempt not recorded: the storage failed; it is made again once its claim runs out',
    ),
  superseded: (eventId, endpointId, delivered, reason) => {
    counter.count('webhook', 'superseded');
    const message =
      'webhook attempt made, not recorded: its delivery changed meanwhile (endpoint disabled, event redelivered, or claim taken again)';
    if (delivered) logger.info({ eventId, endpointId, reason }, message);
    else logger.warn({ eventId, endpointId, reason }, message);
  },
});

/** Binds WebhookSecretGenerator, WebhookAdmin and WebhookDispatcher (TOKENS.WebhookStore is bound with the database's ports). */
export function bindWebhooks(container: Container, maxInFlightPerEndpoint: number): void {
  container.bind<WebhookSecretGenerator>(TOKENS.WebhookSecretGenerator).toConstantValue(cryptoWebhookSecretGenerator);
  container
    .bind<WebhookAdmin>(TOKENS.WebhookAdmin)
    .toResolvedValue(
      (store: WebhookStore, clock: Clock, secrets: WebhookSecretGenerator) => webhookAdmin(store, clock, secrets),
      [TOKENS.WebhookStore, TOKENS.Clock, TOKENS.WebhookSecretGenerator],
    );
  container.bind<WebhookDispatcher>(TOKENS.WebhookDispatcher).toResolvedValue(
    (store: WebhookStore, clock: Clock, logger: Logger, counter: DeliveryCounter, tracing: Tracing | undefined) =>
      new WebhookDispatcher(store, clock, {
        outcomes: reportedWebhookOutcomes(logger, counter),
        maxInFlightPerEndpoint,
        ...(tracing === undefined ? {} : { tracing }),
      }),
    [TOKENS.WebhookStore, TOKENS.Clock, TOKENS.Logger, TOKENS.DeliveryCounter, TOKENS.Tracing],
  );
}
