// The envelope of every event that leaves the service: CloudEvents 1.0, JSON structured mode,
// made by the cloudevents SDK, the same for the broker and for webhooks.
import { CloudEvent } from 'cloudevents';
import type { PetEvent } from '../../domain/index.js';

/** The media type of a structured CloudEvent in JSON. */
export const CLOUD_EVENT_CONTENT_TYPE = 'application/cloudevents+json; charset=utf-8';

/**
 * `event` as a structured CloudEvent, serialised: `source` names this service. Built unchecked
 * (the SDK's `strict` off): every attribute here is valid by construction, and the schema check
 * would run once per event on the relay's path; the tests check the envelopes with the SDK.
 */
export function cloudEventJson(event: PetEvent, source: string): string {
  const envelope = new CloudEvent(
    {
      specversion: '1.0',
      id: event.id,
      source,
      type: event.type,
      subject: String(event.petId),
      time: event.time.toISOString(),
      datacontenttype: 'application/json',
      data: event.data,
    },
    false,
  );
  return JSON.stringify(envelope);
}
