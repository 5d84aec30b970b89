// The change events a JetStream stream holds, read back by the bench after its load (so that no
// subscriber runs beside the server measured): each with its stream sequence, the CloudEvent's
// id and subject, the pet's name in its data, and when JetStream stored it.
import { jetstream, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';

/** One message of the stream, as the bench joins it to what it did. */
export interface StoredEvent {
  /** The stream sequence: the order JetStream stored it in. */
  readonly seq: number;
  /** The NATS subject: the event's type (`petstore.pet.created` …). */
  readonly type: string;
  /** The CloudEvent's `id`: the event's, the same on every redelivery. */
  readonly id: string;
  /** The CloudEvent's `subject`: the pet's id in decimal. */
  readonly about: string;
  /** `data.name`: the pet's name after the change (none for a deletion). */
  readonly name: string | undefined;
  /** When JetStream stored it, in ms since the epoch. */
  readonly storedAtMs: number;
}

interface CloudEventFields {
  readonly id?: unknown;
  readonly subject?: unknown;
  readonly data?: { readonly name?: unknown };
}

/** The stream's last sequence now. */
export const lastSequence = async (jsm: JetStreamManager, stream: string): Promise<number> =>
  (await jsm.streams.info(stream)).state.last_seq;

/** Every message of `stream` from sequence `from` to `to`, in stream order (none when `to` < `from`). */
export async function readStoredEvents(connection: NatsConnection, stream: string, from: number, to: number): Promise<StoredEvent[]> {
  const events: StoredEvent[] = [];
  if (to < from) return events;
  const consumer = await jetstream(connection).consumers.get(stream, { opt_start_seq: from });
  const messages = await consumer.consume();
  for await (const message of messages) {
    const event = message.json<CloudEventFields>();
    events.push({
      seq: message.seq,
      type: message.subject,
      id: String(event.id),
      about: String(event.subject),
      name: typeof event.data?.name === 'string' ? event.data.name : undefined,
      storedAtMs: Number(message.timestampNanos / 1000n) / 1000,
    });
    if (message.seq >= to) break;
  }
  await messages.close();
  return events;
}
