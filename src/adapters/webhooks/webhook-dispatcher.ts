// Sends the webhook deliveries that are due: each an HTTP POST of the event's CloudEvents JSON,
// signed in the Standard Webhooks format (webhook-id, webhook-timestamp, webhook-signature),
// then records the outcome: delivered (2xx), the endpoint disabled (410 Gone), or the next
// attempt per the retry schedule, failed after the last.
import { Webhook } from 'standardwebhooks';
import {
  type DueWebhookDelivery,
  nextWebhookAttemptAt,
  type WebhookAttempt,
  type WebhookEndpointId,
  type WebhookStore,
} from '../../domain/index.js';
import { CLOUD_EVENT_CONTENT_TYPE } from '../shared/cloud-event.js';

/** What the dispatcher tells of each attempt whose outcome it recorded: for metrics and one log line per failed attempt. */
export interface WebhookOutcomes {
  delivered(eventId: string, endpointId: WebhookEndpointId): void;
  /** The attempt failed (`reason`: an HTTP status or why none came); the next one is at `nextAttemptAt`. */
  retrying(eventId: string, endpointId: WebhookEndpointId, attempt: number, nextAttemptAt: Date, reason: string): void;
  /** The delivery is given up: its last attempt failed, or the endpoint answered 410 Gone and is disabled. */
  failed(eventId: string, endpointId: WebhookEndpointId, reason: string): void;
}

/** How a dispatcher sends. */
export interface WebhookDispatcherOptions {
  /** Told of every outcome; nothing by default. */
  readonly outcomes?: WebhookOutcomes;
  /** How long an attempt may take, connection and answer's head included: 10 s by default. */
  readonly timeoutMs?: number;
  /** How many deliveries one dispatchDue sends at most, all at once: 20 by default. */
  readonly batchSize?: number;
  /** How long a claim holds: by default twice the timeout and 30 s more, well beyond an attempt. */
  readonly leaseMs?: number;
  /** A number in [0, 1) for the jitter of retries: Math.random by default. */
  readonly random?: () => number;
}

/** What one {@link WebhookDispatcher.dispatchDue} did. */
export interface WebhookDispatchSummary {
  /** The deliveries claimed and attempted: when it equals the batch size, more may be due at once. */
  readonly attempted: number;
  readonly delivered: number;
  readonly retrying: number;
  readonly failed: number;
}

const NO_OUTCOMES: WebhookOutcomes = { delivered: () => {}, retrying: () => {}, failed: () => {} };
const MAX_ERROR_LENGTH = 300;

/** What went wrong with a request that got no answer, in a few words: never the URL, the headers or the secret. */
function describeRequestFailure(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return `no answer within ${timeoutMs} ms`;
  // fetch rejects with "fetch failed" and the reason in `cause` (ECONNREFUSED 127.0.0.1:9, ENOTFOUND host …).
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  const text = cause instanceof Error ? cause.message : String(cause);
  return text.slice(0, MAX_ERROR_LENGTH);
}

/**
 * Sends due webhook deliveries from a WebhookStore. Any number of dispatchers may run, in any
 * number of processes: the store's claims keep an attempt from being sent twice at once.
 */
export class WebhookDispatcher {
  private readonly outcomes: WebhookOutcomes;
  private readonly timeoutMs: number;
  /** The most deliveries one dispatchDue sends. */
  readonly batchSize: number;
  private readonly leaseMs: number;
  private readonly random: () => number;

  constructor(
    private readonly store: WebhookStore,
    options: WebhookDispatcherOptions = {},
  ) {
    this.outcomes = options.outcomes ?? NO_OUTCOMES;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.batchSize = options.batchSize ?? 20;
    this.leaseMs = options.leaseMs ?? 2 * this.timeoutMs + 30_000;
    this.random = options.random ?? Math.random;
  }

  /**
   * Claims the deliveries due at `now` (at most the batch size), sends them all at once, signed
   * with `now` as their timestamp, and records each outcome; resolves once all are recorded.
   * Rejects only when the store does (nothing was claimed, or a claim runs out and is sent again).
   */
  async dispatchDue(now: Date): Promise<WebhookDispatchSummary> {
    const due = await this.store.claimDue(now, this.batchSize, this.leaseMs);
    const results = await Promise.all(due.map((delivery) => this.attempt(delivery, now)));
    const count = (status: string) => results.filter((result) => result === status).length;
    return { attempted: due.length, delivered: count('delivered'), retrying: count('pending'), failed: count('failed') };
  }

  /** When the next delivery is due (now or earlier: at once); undefined when none is pending. */
  nextDueAt(): Promise<Date | undefined> {
    return this.store.nextDueAt();
  }

  private async attempt(delivery: DueWebhookDelivery, now: Date): Promise<WebhookAttempt['next']['status'] | 'lost'> {
    const { httpStatus, error } = await this.send(delivery, now);
    const reason = httpStatus === null ? error! : `HTTP ${httpStatus}`;
    const attempts = delivery.attempts + 1;
    const succeeded = httpStatus !== null && httpStatus >= 200 && httpStatus < 300;
    const gone = httpStatus === 410;
    const retryAt = succeeded || gone ? undefined : nextWebhookAttemptAt(attempts, now, this.random());
    const next: WebhookAttempt['next'] = succeeded
      ? { status: 'delivered' }
      : retryAt === undefined
        ? { status: 'failed' }
        : { status: 'pending', nextAttemptAt: retryAt };
    const recorded = await this.store.recordAttempt(delivery.claim, { at: now, httpStatus, error, next });
    if (gone) await this.store.disable(delivery.endpointId, now);
    // A claim that no longer held: another dispatcher owns the delivery now, and tells its outcome.
    if (!recorded) return 'lost';
    if (next.status === 'delivered') this.outcomes.delivered(delivery.eventId, delivery.endpointId);
    else if (next.status === 'pending') this.outcomes.retrying(delivery.eventId, delivery.endpointId, attempts, next.nextAttemptAt, reason);
    else this.outcomes.failed(delivery.eventId, delivery.endpointId, gone ? 'HTTP 410 Gone: the endpoint is disabled' : reason);
    return next.status;
  }

  // One POST: the same webhook-id (the event id) at every attempt, a fresh timestamp and signature.
  private async send(delivery: DueWebhookDelivery, now: Date): Promise<{ httpStatus: number | null; error: string | null }> {
    try {
      const signature = new Webhook(delivery.secret).sign(delivery.eventId, now, delivery.body);
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: {
          'content-type': CLOUD_EVENT_CONTENT_TYPE,
          'webhook-id': delivery.eventId,
          'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body: delivery.body,
        // A redirect is an answer that is not 2xx: followed, it could carry the body elsewhere.
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      // Only the status counts: the body is not read, and its connection is freed.
      await response.body?.cancel().catch(() => undefined);
      return { httpStatus: response.status, error: null };
    } catch (err) {
      return { httpStatus: null, error: describeRequestFailure(err, this.timeoutMs) };
    }
  }
}
