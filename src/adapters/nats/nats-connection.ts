// The connection to NATS that the event transport publishes on. It is tried once when opened
// and, when NATS cannot be reached, again every second until it can, so a process starts
// during an outage; once made, the client reconnects by itself, forever. Outages are reported
// once each, as the Redis client's are.
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { natsServerOptions } from './nats-url.js';

/** How the connection is made and kept: its timeouts and its waits between attempts. */
export const NATS_CONNECTION_TIMING = { connectTimeoutMs: 2000, reconnectWaitMs: 1000, pingIntervalMs: 10_000 } as const;

/** What is told of the connection's outages: once when it is lost, once when it is back. */
export interface NatsConnectionEvents {
  /** NATS cannot be reached: at start, or after it could be. Not repeated until {@link restored}. */
  lost(fault: Error): void;
  /** NATS answers again after {@link lost}. */
  restored(): void;
}

/** A connection to NATS that comes and goes with the server. */
export interface NatsLink {
  /** The connection while NATS answers; undefined while it does not. */
  current(): NatsConnection | undefined;
  /** Stops reconnecting; drains the connection (its pending messages are sent) when it is up. */
  close(): Promise<void>;
}

const asError = (fault: unknown): Error => (fault instanceof Error ? fault : new Error(String(fault)));

/** Tells `events` of an outage once, and of its end once. */
function outageReporter(events: NatsConnectionEvents | undefined): NatsConnectionEvents {
  let lost = false;
  return {
    lost: (fault) => {
      if (lost) return;
      lost = true;
      events?.lost(fault);
    },
    restored: () => {
      if (!lost) return;
      lost = false;
      events?.restored();
    },
  };
}

/** A link to the NATS at `url`, once its first connection has been tried. */
export async function openNatsLink(url: string, events?: NatsConnectionEvents): Promise<NatsLink> {
  const report = outageReporter(events);
  let connection: NatsConnection | undefined;
  let up = false;
  let closing = false;
  let retry: NodeJS.Timeout | undefined;

  const watch = async (nc: NatsConnection): Promise<void> => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect') {
        up = false;
        report.lost(new Error('the connection to NATS was lost'));
      } else if (status.type === 'reconnect') {
        up = true;
        report.restored();
      }
    }
  };

  const dial = async (): Promise<void> => {
    retry = undefined;
    let nc: NatsConnection;
    try {
      nc = await connect({
        ...natsServerOptions(url),
        name: 'petstore-events',
        timeout: NATS_CONNECTION_TIMING.connectTimeoutMs,
        maxReconnectAttempts: -1,
        reconnectTimeWait: NATS_CONNECTION_TIMING.reconnectWaitMs,
        pingInterval: NATS_CONNECTION_TIMING.pingIntervalMs,
        // Every publication is a request; with traces on, each one builds two Error objects up
        // front (for a stack that says where it began), which cost more than the publication.
        // A failed publication is retried by the relay, whose log line names the event instead.
        noAsyncTraces: true,
      });
    } catch (fault) {
      report.lost(asError(fault));
      if (!closing) retry = setTimeout(() => void dial(), NATS_CONNECTION_TIMING.reconnectWaitMs);
      return;
    }
    if (closing) return void (await nc.close());
    connection = nc;
    up = true;
    report.restored();
    void watch(nc);
    // Closed without being asked (the server refused it for good): dial anew.
    void nc.closed().then((fault) => {
      if (closing) return;
      connection = undefined;
      up = false;
      report.lost(fault ?? new Error('the connection to NATS was closed'));
      retry = setTimeout(() => void dial(), NATS_CONNECTION_TIMING.reconnectWaitMs);
    });
  };

  await dial();
  return {
    current: () => (up ? connection : undefined),
    close: async () => {
      closing = true;
      clearTimeout(retry);
      if (connection === undefined) return;
      await (up ? connection.drain() : connection.close());
    },
  };
}
