// The JetStream stream that keeps the change events: created when absent, never changed when
// present (an operator may have tuned its limits). Why each setting: docs/events.md ("NATS JetStream").
import { type JetStreamManager, JetStreamApiError, JetStreamApiCodes, StorageType, type StreamConfig } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';

/** The subjects of the stream: one per event type, as the event's type names it. */
export const EVENT_SUBJECTS = ['petstore.pet.*'] as const;

/**
 * How long the stream remembers a message id and drops a message that repeats it. Longer than
 * JetStream's 2-minute default: the relay retries a batch after an outage, and a message sent
 * before the outage may land only at reconnection, minutes after the relay first tried it.
 */
export const DUPLICATE_WINDOW_MS = 10 * 60_000;

/** The configuration of a stream created by the service. */
export const eventStreamConfig = (name: string): Partial<StreamConfig> & { name: string } => ({
  name,
  subjects: [...EVENT_SUBJECTS],
  storage: StorageType.File,
  duplicate_window: nanos(DUPLICATE_WINDOW_MS),
});

const streamNotFound = (fault: unknown): boolean => fault instanceof JetStreamApiError && fault.code === JetStreamApiCodes.StreamNotFound;

/** Creates the stream `name` unless it exists. */
export async function ensureEventStream(jsm: JetStreamManager, name: string): Promise<void> {
  try {
    await jsm.streams.info(name);
  } catch (fault) {
    if (!streamNotFound(fault)) throw fault;
    try {
      await jsm.streams.add(eventStreamConfig(name));
    } catch (addFault) {
      // Another instance may have created it meanwhile, with settings of its own.
      await jsm.streams.info(name).catch(() => Promise.reject(addFault));
    }
  }
}
