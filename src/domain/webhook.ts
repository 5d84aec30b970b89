// Webhooks: the endpoints an operator registers (a URL, the event types it wants) and the
// deliveries of each event to each endpoint that wants it, with their attempts and outcome.
// The endpoint's signing secret is never part of a record.
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { FETCH_BLOCKED_PORTS } from './fetch-blocked-tcp-ports.js';
import { constrained, positiveId } from './codec.js';
import { EVENT_TYPES, type EventType } from './events.js';
import { wantsEvent } from './events.js';

/** Brand of {@link WebhookEndpointId}. */
export interface WebhookEndpointIdBrand {
  readonly WebhookEndpointId: unique symbol;
}
/** The id the store gives an endpoint: a positive integer, never reused. */
export const WebhookEndpointId = positiveId<WebhookEndpointIdBrand>('WebhookEndpointId');
/** A valid webhook endpoint id. */
export type WebhookEndpointId = t.TypeOf<typeof WebhookEndpointId>;

/** Brand of {@link WebhookDeliveryId}. */
export interface WebhookDeliveryIdBrand {
  readonly WebhookDeliveryId: unique symbol;
}
/** The id of one event's delivery to one endpoint. */
export const WebhookDeliveryId = positiveId<WebhookDeliveryIdBrand>('WebhookDeliveryId');
/** A valid webhook delivery id. */
export type WebhookDeliveryId = t.TypeOf<typeof WebhookDeliveryId>;

/** The longest endpoint URL accepted. */
export const MAX_WEBHOOK_URL_LENGTH = 2000;

/**
 * Why `text` cannot be a webhook URL, or undefined when it can: an absolute http or https URL
 * with a host, at most 2000 characters, no user or password in it (the URL is listed and may
 * reach logs; a receiver authenticates the service by the signature instead), and no port
 * that web clients refuse to connect to, nor port 0, which no server listens on.
 */
export function webhookUrlProblem(text: string): string | undefined {
  if (text.length > MAX_WEBHOOK_URL_LENGTH) return `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters long`;
  // Printable ASCII only: URL parsing drops tabs and newlines and keeps other controls, and a
  // listing would show control, bidi and look-alike characters as they are; what is stored and
  // listed must be what is called.
  if (/[^\x21-\x7e]/.test(text)) return 'must be printable ASCII: percent-encode spaces and other characters (a host in punycode)';
  if (!/^https?:\/\//i.test(text) || !URL.canParse(text)) return 'must be an absolute http:// or https:// URL';
  const url = new URL(text);
  if (url.hostname === '') return 'must name a host';
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password: receivers check the signature instead';
  // `port` is '' for the scheme's default port, which Number() would also read as 0.
  if (url.port === '0') return 'must not use port 0, which no server listens on: name the port the receiver listens on (1 to 65535)';
  if (FETCH_BLOCKED_PORTS.has(Number(url.port))) {
    return `must not use port ${url.port}, which HTTP clients refuse to connect to (a "bad port" of the Fetch standard)`;
  }
  return undefined;
}

/** Brand of {@link WebhookUrl}. */
export interface WebhookUrlBrand {
  readonly WebhookUrl: unique symbol;
}
/** Where an endpoint's deliveries are POSTed: see {@link webhookUrlProblem}. */
export const WebhookUrl = constrained<string, t.Branded<string, WebhookUrlBrand>>(
  'WebhookUrl',
  t.string,
  webhookUrlProblem,
  'must be a string',
);
/** A valid webhook URL. */
export type WebhookUrl = t.TypeOf<typeof WebhookUrl>;

/**
 * The event types a comma-separated list names (`petstore.pet.created,petstore.pet.deleted`),
 * each once, in the order of EVENT_TYPES; the empty list (every type) for an empty text.
 * Left: the first name that is not an event type.
 */
export function parseEventTypes(text: string): E.Either<string, readonly EventType[]> {
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.find((name) => !(EVENT_TYPES as readonly string[]).includes(name));
  if (unknown !== undefined) return E.left(unknown);
  return E.right(EVENT_TYPES.filter((type) => names.includes(type)));
}

/** A registered endpoint as it may be shown: everything but its secret. */
export interface WebhookEndpoint {
  readonly id: WebhookEndpointId;
  readonly url: WebhookUrl;
  /** The event types it receives; empty: every type. */
  readonly eventTypes: readonly EventType[];
  readonly createdAt: Date;
  /** When it was disabled (it answered 410 Gone): it receives nothing from then on; null while active. */
  readonly disabledAt: Date | null;
}

/** Where a delivery stands: still to be (re)tried, done, or given up. */
export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event's delivery to one endpoint, with the outcome of its last attempt. */
export interface WebhookDelivery {
  readonly id: WebhookDeliveryId;
  readonly endpointId: WebhookEndpointId;
  /** The event's id: also the `webhook-id` header of every attempt. */
  readonly eventId: string;
  readonly eventType: EventType;
  /** How many attempts were made (0 before the first, and again after a redelivery). */
  readonly attempts: number;
  readonly status: WebhookDeliveryStatus;
  /** Pending: when the next attempt is due (or, while one is under way, until when it is claimed); null otherwise. */
  readonly nextAttemptAt: Date | null;
  /** The HTTP status the endpoint answered at the last attempt; null when it did not answer or none was made. */
  readonly lastStatus: number | null;
  /** Why the last attempt failed without an HTTP status (a timeout, a refused connection); null otherwise. Never a secret. */
  readonly lastError: string | null;
  readonly createdAt: Date;
  readonly lastAttemptAt: Date | null;
}

/** An event as the webhooks keep it: its id, its type, and its body (the CloudEvents JSON) sent as it is at every attempt. */
export interface WebhookEvent {
  readonly id: string;
  readonly type: EventType;
  readonly body: string;
}

/** The pairs of (endpoint, event) to deliver: each active endpoint with each event it wants, events in their order. */
export const webhookDeliveriesOf = <Endpoint extends Pick<WebhookEndpoint, 'id' | 'eventTypes' | 'disabledAt'>>(
  endpoints: readonly Endpoint[],
  events: readonly WebhookEvent[],
): ReadonlyArray<{ readonly endpoint: Endpoint; readonly event: WebhookEvent }> =>
  events.flatMap((event) =>
    endpoints
      .filter((endpoint) => endpoint.disabledAt === null && wantsEvent(endpoint.eventTypes, event.type))
      .map((endpoint) => ({ endpoint, event })),
  );
