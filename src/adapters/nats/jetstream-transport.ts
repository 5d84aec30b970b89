// The change events' broker: each event published to JetStream, on the subject of its type,
// as a structured CloudEvent, with its id as the message id (`Nats-Msg-Id`), so that the
// stream drops a redelivered event. Events are published one by one, each acknowledged before
// the next, so that the stream keeps the outbox's order.
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { EventTransport, PetEvent } from '../../domain/index.js';
import { cloudEventJson } from '../shared/cloud-event.js';
import { ensureEventStream } from './event-stream.js';
import { type NatsConnectionEvents, type NatsLink, openNatsLink } from './nats-connection.js';

/** How long a publication or a stream request waits for JetStream's answer. */
export const JETSTREAM_TIMEOUT_MS = 3000;

/** Where the events go, and what they say of their source. */
export interface JetStreamTransportOptions {
  /** The NATS server: nats:// or tls://, with a user and password or a token when it needs one. */
  readonly url: string;
  /** The stream that keeps the events, created when absent. */
  readonly stream: string;
  /** The CloudEvents `source` of every event. */
  readonly source: string;
  /** Told of the connection's outages; never given the URL. */
  readonly events?: NatsConnectionEvents;
}

/** Why an event could not be published now: the relay tries again later. */
export class NatsUnavailableError extends Error {
  override readonly name = 'NatsUnavailableError';
}

export class JetStreamTransport implements EventTransport {
  readonly name = 'nats';
  /** The client of the connection whose stream is known to exist. */
  private ready: { connection: NatsConnection; client: Promise<JetStreamClient> } | undefined;

  constructor(
    private readonly link: NatsLink,
    private readonly stream: string,
    private readonly source: string,
  ) {}

  async publish(events: readonly PetEvent[]): Promise<void> {
    if (events.length === 0) return;
    try {
      const client = await this.client();
      // A wave at a time, its publications in flight together: one connection delivers them in
      // the order they were sent, and a pet's next event waits for the wave that acknowledged
      // the one before it, so that no failure can leave a later event of a pet stored before an
      // earlier one.
      for (const wave of inWaves(events)) {
        await Promise.all(
          wave.map((event) =>
            client.publish(event.type, cloudEventJson(event, this.source), {
              msgID: event.id,
              timeout: JETSTREAM_TIMEOUT_MS,
              // An event whose subject another stream holds is refused, not kept elsewhere.
              expect: { streamName: this.stream },
            }),
          ),
        );
      }
    } catch (fault) {
      // The stream may be what failed (deleted by an operator): the next try checks it again.
      this.ready = undefined;
      throw fault;
    }
  }

  /** Makes sure the stream exists, once per connection; fails at once while NATS is away. */
  async ensureStream(): Promise<void> {
    await this.client();
  }

  /** Stops reconnecting and drains the connection. */
  close(): Promise<void> {
    return this.link.close();
  }

  private client(): Promise<JetStreamClient> {
    const connection = this.link.current();
    if (connection === undefined) return Promise.reject(new NatsUnavailableError('NATS is not connected'));
    if (this.ready?.connection !== connection) {
      const client = jetstreamManager(connection, { timeout: JETSTREAM_TIMEOUT_MS })
        .then((jsm) => ensureEventStream(jsm, this.stream))
        .then(() => jetstream(connection, { timeout: JETSTREAM_TIMEOUT_MS }));
      this.ready = { connection, client };
    }
    return this.ready.client;
  }
}

/**
 * The transport to the NATS at `options.url`, once its first connection has been tried. When
 * NATS answers, the stream is made sure of now, and a failure to (JetStream off, a stream that
 * cannot be created) rejects; when it does not, `events.lost` is told, the link keeps trying,
 * publications fail until it answers, and the stream is made sure of on the first one after.
 */
export async function openJetStreamTransport(options: JetStreamTransportOptions): Promise<JetStreamTransport> {
  const link = await openNatsLink(options.url, options.events);
  const transport = new JetStreamTransport(link, options.stream, options.source);
  if (link.current() !== undefined) {
    await transport.ensureStream().catch(async (fault: unknown) => {
      await link.close();
      throw fault;
    });
  }
  return transport;
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
