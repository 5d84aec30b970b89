// The change events' broker: each event published to JetStream, on the subject of its type,
// as a structured CloudEvent, with its id as the message id (`Nats-Msg-Id`), so that the
// stream drops a redelivered event. Events go in waves (wave-publication.ts), so that the
// stream keeps each pet's events in the outbox's order.
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { EventTransport, PetEvent } from '../../domain/index.js';
import { cloudEventJson } from '../shared/cloud-event.js';
import { ensureEventStream } from './event-stream.js';
import { type NatsConnectionEvents, type NatsLink, openNatsLink } from './nats-connection.js';
import { inWaves, publishWave, type StreamTail, type WaveTarget } from './wave-publication.js';

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

/**
 * After a chain breaks, the waves that go event by event before the next chain: a stream that
 * another publisher writes to as well breaks most chains, each then sent twice.
 */
export const WAVES_UNCHAINED_AFTER_A_BREAK = 100;

/** What the transport knows on one connection whose stream is known to exist. */
interface Publishing {
  readonly connection: NatsConnection;
  readonly client: Promise<JetStreamClient>;
  /** The stream's last message, as this connection last saw it stored. */
  tail: StreamTail | undefined;
  /** Waves left to publish event by event after a broken chain. */
  unchained: number;
}

export class JetStreamTransport implements EventTransport {
  readonly name = 'nats';
  private publishing: Publishing | undefined;

  constructor(
    private readonly link: NatsLink,
    private readonly stream: string,
    private readonly source: string,
  ) {}

  async publish(events: readonly PetEvent[]): Promise<void> {
    if (events.length === 0) return;
    try {
      const publishing = this.current();
      const target: WaveTarget = {
        connection: publishing.connection,
        client: await publishing.client,
        stream: this.stream,
        timeoutMs: JETSTREAM_TIMEOUT_MS,
        payload: (event) => cloudEventJson(event, this.source),
      };
      for (const wave of inWaves(events)) {
        const chainAfter = publishing.unchained > 0 ? undefined : publishing.tail;
        publishing.unchained = Math.max(0, publishing.unchained - 1);
        const outcome = await publishWave(target, wave, chainAfter);
        publishing.tail = outcome.tail;
        if (outcome.chainBroke) publishing.unchained = WAVES_UNCHAINED_AFTER_A_BREAK;
      }
    } catch (fault) {
      // The stream may be what failed (deleted by an operator): the next try checks it again,
      // and knows nothing of its tail.
      this.publishing = undefined;
      throw fault;
    }
  }

  /** Makes sure the stream exists, once per connection; fails at once while NATS is away. */
  async ensureStream(): Promise<void> {
    await this.current().client;
  }

  /** Stops reconnecting and drains the connection. */
  close(): Promise<void> {
    return this.link.close();
  }

  /** The publishing state of the connection now up; fails at once while NATS is away. */
  private current(): Publishing {
    const connection = this.link.current();
    if (connection === undefined) throw new NatsUnavailableError('NATS is not connected');
    if (this.publishing?.connection !== connection) {
      const client = jetstreamManager(connection, { timeout: JETSTREAM_TIMEOUT_MS })
        .then((jsm) => ensureEventStream(jsm, this.stream))
        .then(() => jetstream(connection, { timeout: JETSTREAM_TIMEOUT_MS }));
      this.publishing = { connection, client, tail: undefined, unchained: 0 };
    }
    return this.publishing;
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
