// Starts the real service (composition root + HTTP server) on an ephemeral loopback port.
import 'reflect-metadata';
import type { Container } from 'inversify';
import type Koa from 'koa';
import { type Logger, pino } from 'pino';
import { type RunningHttpServer, startHttpServer } from '../../src/adapters/http/http-server.js';
import type { ServiceState } from '../../src/domain/index.js';
import { type Config, loadConfig } from '../../src/config/config.js';
import type { DatabaseConfig } from '../../src/config/database-config.js';
import { closeContainer, createContainer } from '../../src/composition/container.js';
import { containerOptionsFrom } from '../../src/composition/container-options.js';
import { TOKENS } from '../../src/composition/tokens.js';
import { clientFor } from './http-client.js';

export const TEST_API_KEY = 'test-key-0123456789abcdef';
export const OTHER_TEST_API_KEY = 'other-key-0123456789abcdef';

export interface TestServer {
  readonly url: string;
  readonly container: Container;
  readonly server: RunningHttpServer;
  close(): Promise<void>;
}

export async function startTestServer(
  database: DatabaseConfig,
  options: {
    configure?: (container: Container) => void;
    limits?: Parameters<typeof startHttpServer>[1]['limits'];
    logger?: Logger;
    /** Settings beside the database, as the environment would give them. */
    config?: Partial<Config>;
  } = {},
): Promise<TestServer> {
  // The server's own defaults (as with an empty environment), but for what a test server needs.
  const defaults = loadConfig({});
  if (defaults._tag === 'Left') throw new Error(`the default configuration is invalid: ${defaults.left.join('; ')}`);
  const config: Config = {
    ...defaults.right,
    host: '127.0.0.1',
    port: 0,
    database,
    apiKeys: [TEST_API_KEY, OTHER_TEST_API_KEY],
    logLevel: 'silent',
    ...options.config,
  };
  // The server's own path from Config to the container; `configure` may then rebind anything before the first resolution.
  const container = createContainer(containerOptionsFrom(config, options.logger ?? pino({ level: 'silent' })));
  options.configure?.(container);
  let server: RunningHttpServer;
  try {
    const app = await container.getAsync<Koa>(TOKENS.HttpApp);
    server = await startHttpServer(app.callback(), { host: '127.0.0.1', port: 0, ...(options.limits ? { limits: options.limits } : {}) });
  } catch (err) {
    await closeContainer(container).catch(() => undefined);
    throw err;
  }
  return {
    url: server.url,
    container,
    server,
    close: async () => {
      container.get<ServiceState>(TOKENS.ServiceState).draining = true;
      await server.close();
      await closeContainer(container);
    },
  };
}

/** Runs `work` with the origin of a server started on `database`, in this process; stops the server after. */
export async function withTestServer<T>(database: DatabaseConfig, work: (origin: string) => Promise<T>): Promise<T> {
  const server = await startTestServer(database);
  try {
    return await work(server.url);
  } finally {
    await server.close();
  }
}

/** A fresh, empty database for one test, and how to remove it afterwards. */
export interface TestDatabase {
  readonly config: DatabaseConfig;
  readonly cleanup: () => void | Promise<void>;
}

/** A memory store for one test: nothing to remove afterwards. */
export const memoryDatabase = (): TestDatabase => ({ config: { kind: 'memory' }, cleanup: () => undefined });

/**
 * Inside a describe(): before each test, a server on a fresh database from `database`, and a
 * client with TEST_API_KEY; after it, both are gone. The fields are set anew for each test.
 */
export function serveEachTest(database: () => TestDatabase | Promise<TestDatabase>): {
  server: TestServer;
  api: ReturnType<typeof clientFor>;
} {
  const live = {} as { server: TestServer; api: ReturnType<typeof clientFor> };
  let cleanup: () => void | Promise<void> = () => {};
  beforeEach(async () => {
    const db = await database();
    cleanup = db.cleanup;
    live.server = await startTestServer(db.config);
    live.api = clientFor(live.server.url, TEST_API_KEY);
  });
  afterEach(async () => {
    await live.server.close();
    await cleanup();
  });
  return live;
}
