// Webhooks as a transport of the relay: taking events means queueing one delivery per
// endpoint that wants each, with the event's CloudEvents JSON, in the service's database.
// The WebhookDispatcher sends them from there.
import { type Clock, type EventTransport, type WebhookStore, wantsEvent } from '../../domain/index.js';
import { cloudEventJson } from '../shared/cloud-event.js';

/** The EventTransport named `webhooks`: publish resolves once the deliveries are stored (enqueuing again adds none). */
export const webhooksTransport = (store: WebhookStore, clock: Clock, source: string): EventTransport => ({
  name: 'webhooks',
  async publish(events) {
    // Most stores have no endpoint, or few: only the events one wants are made into bodies and
    // queued, and with none there is no write at all.
    const active = (await store.list()).filter((endpoint) => endpoint.disabledAt === null);
    const wanted = events.filter((event) => active.some((endpoint) => wantsEvent(endpoint.eventTypes, event.type)));
    if (wanted.length === 0) return;
    await store.enqueue(
      wanted.map((event) => ({ id: event.id, type: event.type, body: cloudEventJson(event, source) })),
      clock.now(),
    );
  },
  // No active endpoint: the events would be read to queue nothing.
  wantsNone: async () => (await store.list()).every((endpoint) => endpoint.disabledAt !== null),
});
