// The ports of webhooks: where endpoints and their deliveries are kept, and where an
// endpoint's signing secret comes from (randomness is an adapter's).
import type { Option } from 'fp-ts/lib/Option.js';
import type { Backlog } from './backlog.js';
import type { EventType } from '../events.js';
import type { WebhookDelivery, WebhookDeliveryId, WebhookEndpoint, WebhookEndpointId, WebhookEvent, WebhookUrl } from '../webhook.js';

/** What is stored of a new endpoint: its record's fields and its secret. */
export interface NewWebhookEndpoint {
  readonly url: WebhookUrl;
  readonly eventTypes: readonly EventType[];
  /** The signing secret, `whsec_` and base64: kept, as signing needs it, and never shown again. */
  readonly secret: string;
  readonly createdAt: Date;
}

/** Proof that a dispatcher holds one attempt of a delivery: only its holder records the attempt's outcome. */
export interface WebhookDeliveryClaim {
  readonly deliveryId: WebhookDeliveryId;
  /** Until when the claim holds; after that the attempt is due again (its dispatcher is presumed gone). */
  readonly leasedUntil: Date;
}

/** A delivery claimed for an attempt, with all it needs to be sent. */
export interface DueWebhookDelivery {
  readonly claim: WebhookDeliveryClaim;
  readonly endpointId: WebhookEndpointId;
  readonly eventId: string;
  readonly eventType: EventType;
  /** Attempts made before this one. */
  readonly attempts: number;
  readonly url: WebhookUrl;
  readonly secret: string;
  /** The event's CloudEvents JSON, as enqueued. */
  readonly body: string;
}

/** The outcome of one attempt, and what the delivery becomes. */
export interface WebhookAttempt {
  readonly at: Date;
  /** The HTTP status answered, or null when there was none. */
  readonly httpStatus: number | null;
  /** Why there was no acceptable answer, when there was no HTTP status; never a secret. */
  readonly error: string | null;
  readonly next:
    { readonly status: 'delivered' } | { readonly status: 'failed' } | { readonly status: 'pending'; readonly nextAttemptAt: Date };
}

/**
 * The webhook endpoints and the deliveries of events to them, in the service's database (the
 * memory adapter is the reference). Deliveries keep the event's body, so that an attempt, or a
 * redelivery, works after the outbox has pruned the event.
 */
export interface WebhookStore {
  /** Stores an endpoint with the next id (ids only ever increase) and answers its record. */
  add(endpoint: NewWebhookEndpoint): Promise<WebhookEndpoint>;
  /** Every endpoint, active and disabled, in ascending id order; never a secret. */
  list(): Promise<readonly WebhookEndpoint[]>;
  /** Deletes an endpoint and its deliveries; false when no endpoint has this id. */
  remove(id: WebhookEndpointId): Promise<boolean>;
  /**
   * Disables an endpoint from `at` on (a disabled one keeps its first time): it gets no new
   * delivery, and its pending deliveries fail. None when no endpoint has this id.
   */
  disable(id: WebhookEndpointId, at: Date): Promise<Option<WebhookEndpoint>>;
  /**
   * Makes a disabled endpoint active again: it gets the deliveries of events relayed from now
   * on (not those of the events relayed while it was disabled, nor its failed ones, which
   * `redeliver` sends again). An active one stays as it is. None when no endpoint has this id.
   */
  enable(id: WebhookEndpointId): Promise<Option<WebhookEndpoint>>;
  /**
   * For each event, one pending delivery, due at `at`, to each active endpoint that wants its
   * type. An event enqueued again (the relay delivers at least once) adds no second delivery
   * to an endpoint that has one.
   */
  enqueue(events: readonly WebhookEvent[], at: Date): Promise<void>;
  /**
   * At most `limit` pending deliveries due at `now` (next attempt at or before it) to active
   * endpoints, soonest first, each claimed until `now + leaseMs` (leaseMs > 0): no other call
   * answers them until the claim's outcome is recorded or its lease runs out, from any process.
   * Of one endpoint, it claims only while fewer than `perEndpoint` of its deliveries are
   * claimed (by any process, this call included) and neither recorded nor run out: an endpoint
   * that never answers holds at most that many attempts, and the others' deliveries go on.
   */
  claimDue(now: Date, limit: number, leaseMs: number, perEndpoint: number): Promise<readonly DueWebhookDelivery[]>;
  /**
   * Records the outcome of the attempt that `claim` holds (one more attempt); false, changing
   * nothing, when the claim no longer holds (its lease ran out and the delivery was claimed
   * again, redelivered, or its endpoint was disabled or removed).
   */
  recordAttempt(claim: WebhookDeliveryClaim, attempt: WebhookAttempt): Promise<boolean>;
  /** The next time a pending delivery to an active endpoint is due (claims included); undefined when none is pending. */
  nextDueAt(): Promise<Date | undefined>;
  /** The deliveries to active endpoints still to be made (pending, due or not), and since when, for the metrics. */
  backlog(): Promise<Backlog>;
  /** The endpoint's most recent deliveries, newest first, at most `limit`. */
  deliveries(endpointId: WebhookEndpointId, limit: number): Promise<readonly WebhookDelivery[]>;
  /**
   * Sends the event again to every active endpoint that had a delivery of it: those
   * deliveries become pending, due at `at`, with their attempts back to 0. Answers how many.
   */
  redeliver(eventId: string, at: Date): Promise<number>;
  /**
   * Deletes the finished deliveries (delivered or failed) whose last attempt, or creation when
   * they had none, was before `before`; pending ones stay. Answers how many.
   */
  prune(before: Date): Promise<number>;
}

/** Makes the signing secret of a new endpoint. */
export interface WebhookSecretGenerator {
  /** A fresh random secret: `whsec_` and the base64 of random bytes. */
  generate(): string;
}
