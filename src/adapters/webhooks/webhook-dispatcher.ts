// Sends the webhook deliveries that are due: each an HTTP POST of the event's CloudEvents JSON,
// signed in the Standard Webhooks format (webhook-id, webhook-timestamp, webhook-signature),
// then records the outcome: delivered (2xx), the endpoint disabled (410 Gone), or the next
// attempt per the retry schedule, failed after the last. The relay's loop only starts sends
// (startDue): a receiver that is slow to answer holds its own attempts, never the relay nor
// the other endpoints' deliveries.
import {
  type Clock,
  type DueWebhookDelivery,
  nextWebhookAttemptAt,
  type WebhookAttempt,
  type WebhookEndpointId,
  type WebhookStore,
} from '../../domain/index.js';
import { traceContextOfCloudEvent } from '../shared/cloud-event.js';
import type { Tracing } from '../shared/tracing.js';
import { describeFault } from '../../domain/fault-description.js';
import { postDelivery, type SendOutcome } from './webhook-request.js';

/** What the dispatcher tells of each attempt whose outcome it recorded: for metrics and one log line per failed attempt. */
export interface WebhookOutcomes {
  delivered(eventId: string, endpointId: WebhookEndpointId): void;
  /** The attempt failed (`reason`: an HTTP status or why none came); the next one is at `nextAttemptAt`. */
  retrying(eventId: string, endpointId: WebhookEndpointId, attempt: number, nextAttemptAt: Date, reason: string): void;
  /** The delivery is given up: its last attempt failed, or the endpoint answered 410 Gone and is disabled (`reason` tells when the storage failed to disable it). */
  failed(eventId: string, endpointId: WebhookEndpointId, reason: string): void;
  /** An attempt started by startDue was made, but the store failed to record its outcome: it is made again once its claim runs out. */
  unrecorded(eventId: string, endpointId: WebhookEndpointId, fault: unknown): void;
  /**
   * An attempt was made (`reason`: an HTTP status or why none came; `delivered` when 2xx), but
   * its delivery had changed meanwhile: its endpoint disabled (a 410 to another attempt, say),
   * the event redelivered, or its claim run out and taken by another attempt. Its outcome is not
   * recorded over what the delivery is now.
   */
  superseded(eventId: string, endpointId: WebhookEndpointId, delivered: boolean, reason: string): void;
}

/** Why a delivery answered 410 Gone ends: the endpoint is disabled, or the storage failed to (the next 410 does it). */
const goneReason = (notDisabled: ReturnType<typeof describeFault> | undefined): string =>
  notDisabled === undefined
    ? 'HTTP 410 Gone: the endpoint is disabled'
    : `HTTP 410 Gone: the endpoint could not be disabled (${notDisabled.type}: ${notDisabled.message}); its next 410 disables it`;

/** How a dispatcher sends. */
export interface WebhookDispatcherOptions {
  /** Told of every outcome; nothing by default. */
  readonly outcomes?: WebhookOutcomes;
  /** How long an attempt may take, connection and answer's head included: 10 s by default. */
  readonly timeoutMs?: number;
  /** How many deliveries one claim takes at most: 20 by default. */
  readonly batchSize?: number;
  /** How many attempts startDue keeps under way at most: 100 by default (five batches). */
  readonly maxInFlight?: number;
  /**
   * How many attempts to one endpoint are under way at most, across every dispatcher on the
   * store (`PETSTORE_WEBHOOK_CONCURRENCY`): 20 by default, so that an endpoint answering in
   * 20 ms keeps up with 200 events a second with room to spare, and one that never answers
   * holds 20 of the 100 attempts for its 10 s each: the others' deliveries go on while fewer
   * than 5 endpoints hang.
   */
  readonly maxInFlightPerEndpoint?: number;
  /** How long a claim holds: by default twice the timeout and 30 s more, well beyond an attempt. */
  readonly leaseMs?: number;
  /** A number in [0, 1) for the jitter of retries: Math.random by default. */
  readonly random?: () => number;
  /** When given, each attempt is a client span, the child of its event's trace context. */
  readonly tracing?: Pick<Tracing, 'inSpan'>;
}

const NO_OUTCOMES: WebhookOutcomes = {
  delivered: () => {},
  retrying: () => {},
  failed: () => {},
  unrecorded: () => {},
  superseded: () => {},
};
/**
 * Sends due webhook deliveries from a WebhookStore. Any number of dispatchers may run, in any
 * number of processes: the store's claims keep an attempt from being sent twice at once.
 */
export class WebhookDispatcher {
  private readonly outcomes: WebhookOutcomes;
  private readonly timeoutMs: number;
  private readonly batchSize: number;
  private readonly maxInFlight: number;
  private readonly maxInFlightPerEndpoint: number;
  private readonly leaseMs: number;
  private readonly random: () => number;
  private readonly tracing: Pick<Tracing, 'inSpan'> | undefined;
  /** The attempts startDue started whose outcomes are not recorded yet. */
  private readonly inFlight = new Set<Promise<void>>();
  private starting: Promise<number> | undefined;
  /** Set by stop: no attempt starts after it. */
  private stopped = false;

  constructor(
    private readonly store: WebhookStore,
    private readonly clock: Clock,
    options: WebhookDispatcherOptions = {},
  ) {
    this.outcomes = options.outcomes ?? NO_OUTCOMES;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.batchSize = options.batchSize ?? 20;
    this.maxInFlight = options.maxInFlight ?? 5 * this.batchSize;
    this.maxInFlightPerEndpoint = options.maxInFlightPerEndpoint ?? 20;
    this.leaseMs = options.leaseMs ?? 2 * this.timeoutMs + 30_000;
    this.random = options.random ?? Math.random;
    this.tracing = options.tracing;
  }

  /**
   * Claims the deliveries due now, a batch at a time, while fewer than maxInFlight attempts are
   * under way, and starts sending them; resolves with how many it started once they are
   * started, not sent, so that an attempt waiting for its answer holds no other. A call made
   * while one is claiming answers that one's result. Rejects only when a claim does. Each
   * attempt that ends claims more in its turn, so that an endpoint gets its next delivery as
   * soon as it has answered the last, not at the next call.
   */
  startDue(): Promise<number> {
    if (this.stopped) return Promise.resolve(0);
    this.starting ??= this.startWhileRoom().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /**
   * Resolves once every attempt started has its outcome recorded (each ends within its
   * timeout), and those their ends started too: while deliveries are due, after stop().
   */
  async settled(): Promise<void> {
    for (;;) {
      await this.starting?.catch(() => undefined);
      if (this.inFlight.size === 0 && this.starting === undefined) return;
      await Promise.all(this.inFlight);
    }
  }

  /** Starts no more attempts; resolves once those under way have their outcomes recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.settled();
  }

  /** When the next delivery is due (now or earlier: at once); undefined when none is pending. */
  nextDueAt(): Promise<Date | undefined> {
    return this.store.nextDueAt();
  }

  private async startWhileRoom(): Promise<number> {
    let started = 0;
    for (;;) {
      const room = Math.min(this.batchSize, this.maxInFlight - this.inFlight.size);
      if (room <= 0 || this.stopped) return started;
      // Each claim at the clock's time then: its lease counts from it.
      const due = await this.store.claimDue(this.clock.now(), room, this.leaseMs, this.maxInFlightPerEndpoint);
      for (const delivery of due) {
        const attempt: Promise<void> = this.attempt(delivery)
          .then(
            () => undefined,
            (fault: unknown) => this.outcomes.unrecorded(delivery.eventId, delivery.endpointId, fault),
          )
          .finally(() => {
            this.inFlight.delete(attempt);
            // A claim that fails here is told by the next call of startDue (the relay's, every poll).
            this.startDue().catch(() => undefined);
          });
        this.inFlight.add(attempt);
      }
      started += due.length;
      if (due.length < room) return started;
    }
  }

  private async attempt(delivery: DueWebhookDelivery): Promise<WebhookAttempt['next']['status'] | 'lost'> {
    const now = this.clock.now();
    const { httpStatus, error } = await this.tracedSend(delivery, now);
    // The schedule's delays count from the failure: after a timeout, from its end, not from the send.
    const ended = this.clock.now();
    const reason = httpStatus === null ? error! : `HTTP ${httpStatus}`;
    const attempts = delivery.attempts + 1;
    const succeeded = httpStatus !== null && httpStatus >= 200 && httpStatus < 300;
    const gone = httpStatus === 410;
    const retryAt = succeeded || gone ? undefined : nextWebhookAttemptAt(attempts, ended, this.random());
    const next: WebhookAttempt['next'] = succeeded
      ? { status: 'delivered' }
      : retryAt === undefined
        ? { status: 'failed' }
        : { status: 'pending', nextAttemptAt: retryAt };
    const recorded = await this.store.recordAttempt(delivery.claim, { at: now, httpStatus, error, next });
    // The attempt is recorded by now: a failed disable is told as such, not as an attempt to make again.
    const notDisabled = gone ? await this.store.disable(delivery.endpointId, ended).then(() => undefined, describeFault) : undefined;
    // A claim that no longer held: the attempt was made all the same, and is told as such.
    if (!recorded) {
      this.outcomes.superseded(delivery.eventId, delivery.endpointId, succeeded, reason);
      return 'lost';
    }
    if (next.status === 'delivered') this.outcomes.delivered(delivery.eventId, delivery.endpointId);
    else if (next.status === 'pending') this.outcomes.retrying(delivery.eventId, delivery.endpointId, attempts, next.nextAttemptAt, reason);
    else this.outcomes.failed(delivery.eventId, delivery.endpointId, gone ? goneReason(notDisabled) : reason);
    return next.status;
  }

  // The attempt's span, when tracing: its outcome, never the URL (which may hold a token) but its host.
  private tracedSend(delivery: DueWebhookDelivery, now: Date): Promise<SendOutcome> {
    const trace = traceContextOfCloudEvent(delivery.body);
    if (this.tracing === undefined) return postDelivery(delivery, now, trace, this.timeoutMs);
    const attributes = {
      'http.request.method': 'POST',
      'server.address': new URL(delivery.url).hostname,
      'messaging.message.id': delivery.eventId,
      'petstore.webhook.endpoint_id': String(delivery.endpointId),
      'petstore.webhook.attempt': delivery.attempts + 1,
    };
    return this.tracing.inSpan('webhook attempt', { kind: 'client', parent: trace ?? null, attributes }, async (span) => {
      const outcome = await postDelivery(delivery, now, trace, this.timeoutMs);
      if (outcome.httpStatus !== null) span.set({ 'http.response.status_code': outcome.httpStatus });
      if (outcome.httpStatus === null || outcome.httpStatus >= 300) span.fail(new Error(outcome.error ?? `HTTP ${outcome.httpStatus}`));
      return outcome;
    });
  }
}
