// Redis for tests: the server named by PETSTORE_TEST_REDIS_URL, which other test runs (and
// other people's) share, so it is never flushed: each test writes under a key prefix of its
// own and deletes its keys afterwards. A test that stops Redis starts a private redis-server.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { freePort, killChild, runChildServer } from './child-server.js';
import { serverSuites } from './server-suites.js';

const suites = serverSuites('Redis', 'PETSTORE_TEST_REDIS_URL', 'redis-server');

/** The shared server's URL, or undefined when the tests that need it are to be skipped. */
export const REDIS_TEST_URL = suites.url;

export const REDIS_SKIP_REASON = suites.skipReason;

/** A describe() whose tests need the shared Redis: skipped, with the reason in its title, without it. */
export const describeWithRedis = suites.describeWithShared;

/** A describe() whose tests start their own redis-server: skipped, with the reason in its title, where none is installed. */
export const describeWithRedisServer = suites.describeWithBinary;

/** A key prefix no other test (nor test run) uses. */
export const testKeyPrefix = (): string => `petstore-test-${randomBytes(6).toString('hex')}`;

/** Deletes every key under `prefix` on the shared Redis, and nothing else. */
export async function deleteKeysUnder(prefix: string): Promise<void> {
  const client = new Redis(REDIS_TEST_URL!, { lazyConnect: true });
  await client.connect();
  try {
    for await (const keys of client.scanStream({ match: `${prefix}:*`, count: 100 }) as AsyncIterable<string[]>) {
      if (keys.length > 0) await client.del(...keys);
    }
  } finally {
    client.disconnect();
  }
}

/** A redis-server of this test alone, keeping nothing on disk. */
export interface PrivateRedis {
  readonly url: string;
  /** Kills it (SIGKILL): no goodbye to its clients, as a crash or a cut network. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
}

/** Starts redis-server on `port` and waits until it accepts connections. */
const runRedisServer = (port: number): Promise<ChildProcess> =>
  runChildServer(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    'Ready to accept connections',
  );

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child = await runRedisServer(port);
  return {
    url: `redis://127.0.0.1:${port}`,
    kill: () => killChild(child),
    restart: async () => {
      await killChild(child);
      child = await runRedisServer(port);
    },
  };
}
