// The ioredis client the shared rate limits count in, made to fail fast: while Redis is away a
// command is refused at once rather than queued, and one that gets no answer gives up after
// the command timeout, so an outage slows a request by that much at most. The client
// reconnects by itself meanwhile (every 2 s at most), and its outages are reported once each.
import { Redis } from 'ioredis';

/** The client's timeouts: to connect, and to wait for the answer to a command. */
export const REDIS_CLIENT_TIMEOUTS = { connectTimeoutMs: 2000, commandTimeoutMs: 500 } as const;

/** What is told of a connection's outages: once when it is lost, once when it is back. */
export interface RedisConnectionEvents {
  /** Redis cannot be reached: at start, or after it could be. Not repeated until {@link restored}. */
  lost(fault: Error): void;
  /** Redis answers again after {@link lost}. */
  restored(): void;
}

/**
 * Reports the outages of `client` to `events`, and answers the function that stops reporting
 * (call it before closing the client, whose last 'close' is no outage). ioredis emits an
 * 'error' for every failed reconnection: only the first of an outage is told.
 */
export function watchRedisConnection(client: Redis, events: RedisConnectionEvents): () => void {
  let lost = false;
  const onLost = (fault: Error): void => {
    if (lost) return;
    lost = true;
    events.lost(fault);
  };
  const onClose = (): void => onLost(new Error('the connection to Redis was closed'));
  const onReady = (): void => {
    if (!lost) return;
    lost = false;
    events.restored();
  };
  client.on('error', onLost).on('close', onClose).on('ready', onReady);
  return () => void client.off('error', onLost).off('close', onClose).off('ready', onReady);
}

/**
 * A client of the Redis at `url` (redis:// or rediss://), watched by `events`, once its first
 * connection has been tried: when Redis cannot be reached it is reported lost and the client
 * keeps trying, so that a process can start during an outage. Close it with `disconnect()`.
 */
export async function openRedisClient(url: string, events: RedisConnectionEvents): Promise<{ client: Redis; unwatch: () => void }> {
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    connectTimeout: REDIS_CLIENT_TIMEOUTS.connectTimeoutMs,
    commandTimeout: REDIS_CLIENT_TIMEOUTS.commandTimeoutMs,
    // A command sent on a connection that then breaks is not sent again: the insurance decides.
    maxRetriesPerRequest: 0,
  });
  // ioredis prints an 'error' that nobody listens to, even once the watch is gone.
  client.on('error', () => {});
  const unwatch = watchRedisConnection(client, events);
  await client.connect().catch(() => undefined);
  return { client, unwatch };
}
