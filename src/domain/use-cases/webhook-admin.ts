// Managing webhooks: register an endpoint (its secret shown once), list, remove and enable again endpoints,
// read an endpoint's recent deliveries, send an event again. The CLI (`petstore webhooks …`) uses these.
import { EVENT_TYPES, type EventType } from '../events.js';
import type { Clock } from '../ports/index.js';
import { type WebhookEndpoint, WebhookUrl } from '../webhook.js';
import type { WebhookSecretGenerator, WebhookStore } from '../ports/index.js';

/** An endpoint just registered: its secret, shown this once, and its record. */
export interface AddedWebhookEndpoint {
  readonly secret: string;
  readonly endpoint: WebhookEndpoint;
}

/** The most deliveries {@link WebhookAdmin.deliveries} answers. */
export const MAX_LISTED_DELIVERIES = 100;

/** The operations on webhooks: `list`, `remove`, `enable` and `deliveries` are the store's own (never a secret). */
export interface WebhookAdmin extends Pick<WebhookStore, 'list' | 'remove' | 'enable' | 'deliveries'> {
  /** Registers `url` for `eventTypes` (none: every type) with a fresh secret, answered once. @throws TypeError for an invalid URL or type */
  add(url: WebhookUrl, eventTypes: readonly EventType[]): Promise<AddedWebhookEndpoint>;
  /** Sends the event again, from now, to every active endpoint that had it; answers how many deliveries. */
  redeliver(eventId: string): Promise<number>;
}

/** The webhook operations on `store`, with times from `clock` and secrets from `secrets`. */
export const webhookAdmin = (store: WebhookStore, clock: Clock, secrets: WebhookSecretGenerator): WebhookAdmin => ({
  async add(url, eventTypes) {
    // The types say so, but plain JavaScript callers get no compiler: check here too.
    if (!WebhookUrl.is(url)) throw new TypeError('the URL must be an absolute http:// or https:// URL without a user or password');
    if (!eventTypes.every((type) => EVENT_TYPES.includes(type))) throw new TypeError(`event types are among ${EVENT_TYPES.join(', ')}`);
    const secret = secrets.generate();
    const endpoint = await store.add({ url, eventTypes, secret, createdAt: clock.now() });
    return { secret, endpoint };
  },
  list: () => store.list(),
  remove: (id) => store.remove(id),
  enable: (id) => store.enable(id),
  deliveries: (endpointId, limit) => store.deliveries(endpointId, Math.min(limit, MAX_LISTED_DELIVERIES)),
  redeliver: (eventId) => store.redeliver(eventId, clock.now()),
});
