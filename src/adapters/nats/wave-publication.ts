// How the events of a batch reach the stream: in waves, each holding at most one event of each
// pet, a wave acknowledged before the next goes, so that a pet's events are stored in the
// order they committed whatever fails in between.
//
// An acknowledgement per event costs the client and the server more than the event itself.
// So once the stream's last message is known (its tail), a wave goes as a chain: every event
// but the last without an acknowledgement, each expecting the one before it as the stream's
// last message (its sequence and its id), and the last acknowledged. The stream stores a
// message only when its expectations hold, so it can have taken the last only if it took
// every event of the chain, in order, with nothing between them: that acknowledgement is one
// for the whole wave (docs/decisions/0022-jetstream-waves-as-chains.md). A chain that breaks
// (another publisher, an event stored before) is published again event by event, each
// acknowledged; the stream drops, by id, what the chain had stored.
import { type JetStreamClient, JetStreamApiError, type PubAck, PubHeaders } from '@nats-io/jetstream';
import { headers, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import type { PetEvent } from '../../domain/index.js';
import { traceHeaders } from '../shared/trace-context.js';

/** The stream's last message, as an acknowledgement told it. */
export interface StreamTail {
  readonly seq: number;
  readonly id: string;
}

/** Where and how a wave is published. */
export interface WaveTarget {
  readonly connection: NatsConnection;
  readonly client: JetStreamClient;
  readonly stream: string;
  readonly timeoutMs: number;
  /** The message of an event. */
  payload(event: PetEvent): string;
}

/** `events` in waves that hold at most one event of each pet, every wave in outbox order. */
export function inWaves(events: readonly PetEvent[]): PetEvent[][] {
  const waves: PetEvent[][] = [];
  const seen = new Map<number, number>();
  for (const event of events) {
    const wave = seen.get(event.petId) ?? 0;
    seen.set(event.petId, wave + 1);
    (waves[wave] ??= []).push(event);
  }
  return waves;
}

/** A wave stored: the stream's tail after it, when the acknowledgements tell it (not when its last event was a duplicate). */
export interface WaveOutcome {
  readonly tail: StreamTail | undefined;
  /** It went as a chain that broke, and then event by event. */
  readonly chainBroke: boolean;
}

/**
 * Publishes `wave`: as a chain after `tail` when one is given and the wave holds more than one
 * event, else (or when the chain breaks) event by event. Rejects when an event could not be
 * stored.
 */
export async function publishWave(target: WaveTarget, wave: readonly PetEvent[], tail: StreamTail | undefined): Promise<WaveOutcome> {
  const chaining = tail !== undefined && wave.length > 1;
  if (chaining) {
    const chained = await publishChain(target, wave, tail);
    if (chained !== 'broken') return { tail: chained, chainBroke: false };
  }
  return { tail: await publishEach(target, wave), chainBroke: chaining };
}

/** The message headers of `event`'s trace context (W3C `traceparent`, `tracestate`), added to `to`. */
function withTraceHeaders(event: PetEvent, to: MsgHdrs): MsgHdrs {
  for (const [name, value] of Object.entries(traceHeaders(event.traceContext))) to.set(name, value);
  return to;
}

/** The headers of an event published with the client's own (its id, its expectations): its trace context's, if any. */
const traceHeadersOf = (event: PetEvent): { headers?: MsgHdrs } =>
  event.traceContext === undefined ? {} : { headers: withTraceHeaders(event, headers()) };

/** Every event acknowledged on its own, all in flight together. */
async function publishEach(target: WaveTarget, wave: readonly PetEvent[]): Promise<StreamTail | undefined> {
  const acks = await Promise.all(
    wave.map((event) =>
      target.client.publish(event.type, target.payload(event), {
        msgID: event.id,
        timeout: target.timeoutMs,
        // An event whose subject another stream holds is refused, not kept elsewhere.
        expect: { streamName: target.stream },
        ...traceHeadersOf(event),
      }),
    ),
  );
  // One connection's messages are stored in the order sent: the last one sent is the tail.
  return tailAfter(acks.at(-1)!, wave.at(-1)!);
}

/** The wave as one chain after `tail`; 'broken' when the stream refused its last event. */
async function publishChain(target: WaveTarget, wave: readonly PetEvent[], tail: StreamTail): Promise<StreamTail | 'broken'> {
  let previous = tail;
  for (const event of wave.slice(0, -1)) {
    const expectations = headers();
    expectations.set(PubHeaders.MsgIdHdr, event.id);
    expectations.set(PubHeaders.ExpectedLastSeqHdr, String(previous.seq));
    expectations.set(PubHeaders.ExpectedLastMsgIdHdr, previous.id);
    target.connection.publish(event.type, target.payload(event), { headers: withTraceHeaders(event, expectations) });
    previous = { seq: previous.seq + 1, id: event.id };
  }
  const last = wave.at(-1)!;
  try {
    const ack = await target.client.publish(last.type, target.payload(last), {
      msgID: last.id,
      timeout: target.timeoutMs,
      expect: { streamName: target.stream, lastSequence: previous.seq, lastMsgID: previous.id },
      ...traceHeadersOf(last),
    });
    // A duplicate proves nothing of the events before it.
    return ack.duplicate ? 'broken' : { seq: ack.seq, id: last.id };
  } catch (fault) {
    // The stream answered, and refused: an expectation did not hold. Anything else (no answer
    // in time, no connection) is the relay's to retry.
    if (fault instanceof JetStreamApiError) return 'broken';
    throw fault;
  }
}

const tailAfter = (ack: PubAck, event: PetEvent): StreamTail | undefined => (ack.duplicate ? undefined : { seq: ack.seq, id: event.id });
