// One attempt of a webhook delivery as an HTTP request: a POST of the event's CloudEvents JSON,
// signed in the Standard Webhooks format (webhook-id, webhook-timestamp, webhook-signature), with
// the event's trace context as the W3C headers, and what became of it.
import { Webhook } from 'standardwebhooks';
import type { DueWebhookDelivery, TraceContext } from '../../domain/index.js';
import { CLOUD_EVENT_CONTENT_TYPE } from '../shared/cloud-event.js';
import { traceHeaders } from '../shared/trace-context.js';

const MAX_ERROR_LENGTH = 300;

/** What became of one POST: its answer's status, or why none came. */
export interface SendOutcome {
  readonly httpStatus: number | null;
  readonly error: string | null;
}

/** What went wrong with a request that got no answer, in a few words: never the URL, the headers or the secret. */
function describeRequestFailure(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return `no answer within ${timeoutMs} ms`;
  // fetch rejects with "fetch failed" and the reason in `cause` (ECONNREFUSED 127.0.0.1:8080, ENOTFOUND host …).
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  const text = cause instanceof Error ? cause.message : String(cause);
  return text.slice(0, MAX_ERROR_LENGTH);
}

/**
 * One POST: the same webhook-id (the event id) at every attempt, a fresh timestamp and
 * signature, and the event's trace context (its CloudEvent's), when it has one.
 */
export async function postDelivery(
  delivery: DueWebhookDelivery,
  now: Date,
  trace: TraceContext | undefined,
  timeoutMs: number,
): Promise<SendOutcome> {
  try {
    const signature = new Webhook(delivery.secret).sign(delivery.eventId, now, delivery.body);
    const response = await fetch(delivery.url, {
      method: 'POST',
      headers: {
        'content-type': CLOUD_EVENT_CONTENT_TYPE,
        'webhook-id': delivery.eventId,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signature,
        ...traceHeaders(trace),
      },
      body: delivery.body,
      // A redirect is an answer that is not 2xx: followed, it could carry the body elsewhere.
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    // Only the status counts: the body is not read, and its connection is freed.
    await response.body?.cancel().catch(() => undefined);
    return { httpStatus: response.status, error: null };
  } catch (err) {
    return { httpStatus: null, error: describeRequestFailure(err, timeoutMs) };
  }
}
