// The JetStream stream that keeps the change events: created when absent, never changed when
// present (an operator may have tuned its limits). Why each setting: docs/events.md ("NATS JetStream").
import { type JetStreamManager, JetStreamApiError, JetStreamApiCodes, StorageType, type StreamConfig } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { EVENT_TYPES, type EventType, isOrderEventType } from '../../domain/index.js';

/** The subjects of the stream: one per event type, as the event's type names it. */
export const EVENT_SUBJECTS = ['petstore.pet.*', 'petstore.order.*'] as const;

/** The subjects of the events interface 1.3 added: added to a stream of an earlier release that takes every other one. */
const ORDER_SUBJECT = 'petstore.order.*';

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

/** Whether the NATS subject filter `filter` (`*` one token, `>` the rest) takes `subject`. */
export function subjectMatches(filter: string, subject: string): boolean {
  const wanted = filter.split('.');
  const tokens = subject.split('.');
  for (const [i, token] of wanted.entries()) {
    if (token === '>') return tokens.length > i;
    if (i >= tokens.length || (token !== '*' && token !== tokens[i])) return false;
  }
  return wanted.length === tokens.length;
}

/** A stream that exists and takes none of some event type's subjects: its messages would find no stream. */
export class StreamSubjectsError extends Error {
  override readonly name = 'StreamSubjectsError';
}

/** The event types `subjects` leave out. */
const typesLeftOut = (subjects: readonly string[]): readonly string[] =>
  EVENT_TYPES.filter((type) => !subjects.some((filter) => subjectMatches(filter, type)));

/**
 * Creates the stream `name` unless it exists; one that exists must take every event type's
 * subject, or publishing to it would fail as if JetStream were off.
 */
export async function ensureEventStream(jsm: JetStreamManager, name: string): Promise<void> {
  try {
    const { config } = await jsm.streams.info(name);
    const leftOut = typesLeftOut(config.subjects ?? []);
    // A stream made by a release before 1.3 takes the pets' events only: the orders' are added to it.
    if (leftOut.length > 0 && leftOut.every((type) => isOrderEventType(type as EventType))) {
      await jsm.streams.update(name, { ...config, subjects: [...(config.subjects ?? []), ORDER_SUBJECT] });
      return;
    }
    if (leftOut.length > 0) {
      throw new StreamSubjectsError(
        `the JetStream stream ${name} does not take the subjects ${leftOut.join(', ')} (its subjects: ${(config.subjects ?? []).join(', ') || 'none'}): ` +
          `add ${EVENT_SUBJECTS.join(', ')} to it, or name another stream (PETSTORE_NATS_STREAM)`,
      );
    }
  } catch (fault) {
    if (fault instanceof StreamSubjectsError) throw fault;
    if (!streamNotFound(fault)) throw fault;
    try {
      await jsm.streams.add(eventStreamConfig(name));
    } catch (addFault) {
      // Another instance may have created it meanwhile, with settings of its own.
      await jsm.streams.info(name).catch(() => Promise.reject(addFault));
    }
  }
}
