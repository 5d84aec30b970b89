// The JetStream stream that keeps the change events: created when absent; when present, its limits
// are left as they are (an operator may have tuned them) and only the subjects of a resource it
// takes none of are added (a stream of an earlier release). Why: docs/events.md ("NATS JetStream").
import { type JetStreamManager, JetStreamApiError, JetStreamApiCodes, StorageType, type StreamConfig } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { EVENT_TYPES } from '../../domain/index.js';

/** The subjects of the stream: one per event type, as the event's type names it. */
export const EVENT_SUBJECTS = ['petstore.pet.*', 'petstore.category.*', 'petstore.order.*'] as const;

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

/** The service's subject filters none of whose event types `subjects` take: those of a resource newer than the stream. */
const filtersLeftOut = (leftOut: readonly string[]): readonly string[] =>
  EVENT_SUBJECTS.filter((filter) => EVENT_TYPES.filter((type) => subjectMatches(filter, type)).every((type) => leftOut.includes(type)));

/**
 * Makes a stream that exists take every event type's subject, or publishing to it would fail as
 * if JetStream were off. A resource none of whose subjects it takes (one an earlier release did
 * not have) gets its filter added; any other gap is the operator's to close, and nothing changes.
 */
async function completeSubjects(jsm: JetStreamManager, name: string, subjects: readonly string[]): Promise<void> {
  const leftOut = typesLeftOut(subjects);
  if (leftOut.length === 0) return;
  const added = filtersLeftOut(leftOut);
  if (leftOut.some((type) => !added.some((filter) => subjectMatches(filter, type)))) {
    throw new StreamSubjectsError(
      `the JetStream stream ${name} does not take the subjects ${leftOut.join(', ')} (its subjects: ${subjects.join(', ') || 'none'}): ` +
        `add ${EVENT_SUBJECTS.join(', ')} to it, or name another stream (PETSTORE_NATS_STREAM)`,
    );
  }
  try {
    await jsm.streams.update(name, { subjects: [...subjects, ...added] });
  } catch (fault) {
    const reason = fault instanceof Error ? fault.message : String(fault);
    throw new StreamSubjectsError(`could not add the subjects ${added.join(', ')} to the JetStream stream ${name}: ${reason}`);
  }
}

/** Creates the stream `name` unless it exists; one that exists is made to take every event type's subject. */
export async function ensureEventStream(jsm: JetStreamManager, name: string): Promise<void> {
  try {
    const { config } = await jsm.streams.info(name);
    await completeSubjects(jsm, name, config.subjects ?? []);
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
