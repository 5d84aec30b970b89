// NATS for tests: the server named by PETSTORE_TEST_NATS_URL, which other test runs share (a
// test there uses streams and subjects of its own and deletes them), and private nats-servers
// with JetStream on a free port and a temp store, which a test may stop and start again.
import type { ChildProcess } from 'node:child_process';
import { freePort, killChild, runChildServer } from './child-server.js';
import { serverSuites } from './server-suites.js';
import { tempDir } from './temp-dir.js';

const suites = serverSuites('NATS', 'PETSTORE_TEST_NATS_URL', 'nats-server');

/** The shared server's URL, or undefined when the tests that need it are to be skipped. */
export const NATS_TEST_URL = suites.url;

export const NATS_SKIP_REASON = suites.skipReason;

/** A describe() whose tests need the shared NATS: skipped, with the reason in its title, without it. */
export const describeWithNats = suites.describeWithShared;

/** A describe() whose tests start their own nats-server: skipped, with the reason in its title, where none is installed. */
export const describeWithNatsServer = suites.describeWithBinary;

/** A nats-server of this test alone, with JetStream, keeping its streams in a temp folder. */
export interface PrivateNats {
  readonly url: string;
  /** Kills it (SIGKILL): no goodbye to its clients, as a crash or a cut network. */
  stop(): Promise<void>;
  /** Starts it again on the same port, with the streams it had (those on disk). */
  start(): Promise<void>;
  /** Kills it and removes its store. */
  remove(): Promise<void>;
}

export async function startPrivateNats(): Promise<PrivateNats> {
  const port = await freePort();
  const store = tempDir('petstore-nats-');
  const run = (): Promise<ChildProcess> =>
    runChildServer('nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store.path], 'Server is ready');
  let child: ChildProcess | undefined = await run();
  const stop = async (): Promise<void> => {
    if (child !== undefined) await killChild(child);
    child = undefined;
  };
  return {
    url: `nats://127.0.0.1:${port}`,
    stop,
    start: async () => {
      await stop();
      child = await run();
    },
    remove: async () => {
      await stop();
      store.remove();
    },
  };
}
