// Webhooks as a transport of the relay: taking events means queueing one delivery per
// endpoint that wants each, with the event's CloudEvents JSON, in the service's database.
// The WebhookDispatcher sends them from there.
import type { Clock, EventTransport, WebhookStore } from '../../domain/index.js';
import { cloudEventJson } from '../shared/cloud-event.js';

/** The EventTransport named `webhooks`: publish resolves once the deliveries are stored (enqueuing again adds none). */
export const webhooksTransport = (store: WebhookStore, clock: Clock, source: string): EventTransport => ({
  name: 'webhooks',
  publish: (events) =>
    store.enqueue(
      events.map((event) => ({ id: event.id, type: event.type, body: cloudEventJson(event, source) })),
      clock.now(),
    ),
});
