// The envelope of every event that leaves the service: CloudEvents 1.0, JSON structured mode,
// the same for the broker and for webhooks. Written here in the exact form the cloudevents SDK
// writes, attribute for attribute: making the SDK's object for each event was about a fifth of
// the JetStream publisher's work (docs/decisions/0023-cloudevents-envelope-written-directly.md).
// The tests hold it to the SDK: the same bytes as the SDK's, and valid by its schema.
import { eventSubject, type PetEvent, type TraceContext } from '../../domain/index.js';

/** The media type of a structured CloudEvent in JSON. */
export const CLOUD_EVENT_CONTENT_TYPE = 'application/cloudevents+json; charset=utf-8';

/**
 * `event` as a structured CloudEvent, serialised: `source` names this service. An event whose
 * change was traced carries its context as the Distributed Tracing extension's `traceparent`
 * and `tracestate` attributes.
 */
export function cloudEventJson(event: PetEvent, source: string): string {
  // The SDK's order of attributes, its extensions after the data.
  return JSON.stringify({
    id: event.id,
    time: event.time.toISOString(),
    type: event.type,
    source,
    specversion: '1.0',
    datacontenttype: 'application/json',
    subject: eventSubject(event),
    data: event.data,
    ...event.traceContext,
  });
}

/** The Distributed Tracing extension's attributes of a CloudEvent this service wrote (`cloudEventJson`), if it has them. */
export function traceContextOfCloudEvent(json: string): TraceContext | undefined {
  // Most events carry none: their JSON is not parsed again for it.
  if (!json.includes('"traceparent"')) return undefined;
  const { traceparent, tracestate } = JSON.parse(json) as { traceparent?: unknown; tracestate?: unknown };
  if (typeof traceparent !== 'string') return undefined;
  return typeof tracestate === 'string' ? { traceparent, tracestate } : { traceparent };
}
