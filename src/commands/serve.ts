// `petstore serve` (and `npm start`): configuration from the environment, the composition
// root, the HTTP server, and a clean stop on SIGTERM/SIGINT (stop accepting, finish requests,
// close the database). Opening the database migrates its schema (under a lock, so several
// instances may start at once).
import { describeFault } from '../domain/fault-description.js';
import 'reflect-metadata';
import cluster from 'node:cluster';
import { configuredProcess } from './support/configuration.js';
import { describeDatabase } from '../config/database-config.js';
import { describeRedis } from '../config/redis-config.js';
import { tracingConfigured } from '../config/tracing-config.js';
import type { ServiceState } from '../domain/index.js';
import {
  announcedApiUrl,
  closeContainer,
  containerOptionsFrom,
  createContainer,
  generatedApiKey,
  type StartEventRelay,
  type StartHttpServer,
  TOKENS,
} from '../composition/index.js';
import { printGeneratedKey } from './support/generated-key.js';
import { serveWithWorkers } from './support/serve-workers.js';

/**
 * Starts the server; answers 0 once it listens (it then runs until SIGTERM or SIGINT, which
 * end the process), or 1 when it cannot start.
 */
export async function serve(env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const configured = configuredProcess(env, 'invalid configuration, not starting');
  if (configured === undefined) return 1;
  const { config, logger: processLogger } = configured;
  // A worker's lines name it, so that an operator can tell the workers of one port apart.
  const logger = cluster.isWorker ? processLogger.child({ worker: cluster.worker?.id, pid: process.pid }) : processLogger;
  // The primary of PETSTORE_WORKERS > 1 only prepares the database and looks after the workers;
  // each worker (a copy of this process, forked by node:cluster) serves as a single process does.
  if (config.workers > 1 && cluster.isPrimary) return serveWithWorkers(config, logger);

  // A worker is given its primary's key (or the configured ones) in PETSTORE_API_KEYS.
  // Tracing is the serving processes' alone: OpenTelemetry's variables turn it on (tracing-config.ts).
  const container = createContainer({
    ...containerOptionsFrom(config, logger),
    generateKeyWhenNone: !cluster.isWorker,
    tracing: tracingConfigured(env),
  });
  let server;
  let relay;
  let generatedKey: string | undefined;
  try {
    generatedKey = await generatedApiKey(container);
    // The event transports open before the port does: a broker that refuses the stream stops
    // the start before any request is taken, whose event could then never be relayed.
    const startRelay = await container.getAsync<StartEventRelay>(TOKENS.EventRelay);
    const startHttpServer = await container.getAsync<StartHttpServer>(TOKENS.HttpServer);
    server = await startHttpServer({ host: config.host, port: config.port });
    // Every serving process starts one; the outbox's lease keeps one active per database.
    relay = await startRelay();
  } catch (err) {
    logger.fatal({ fault: describeFault(err) }, 'could not start');
    // An open port would keep the process alive, answering, without its relay.
    await server?.close().catch(() => undefined);
    // The container keeps a failed resolution and rethrows it on close: it was logged just above.
    await closeContainer(container).catch(() => undefined);
    // A worker's channel to its primary would keep it alive: let go of it so that it exits.
    cluster.worker?.disconnect();
    return 1;
  }
  // Stopped cleanly from the moment it says it listens: a signal sent on that line finds its handler.
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: finishing requests in flight');
    // /readyz answers 503 from now on, so a load balancer stops sending traffic here.
    container.get<ServiceState>(TOKENS.ServiceState).draining = true;
    void server
      .close()
      .then(() => relay?.stop())
      .then(() => closeContainer(container))
      .then(
        () => {
          logger.info('stopped');
          process.exit(0);
        },
        (err: unknown) => {
          logger.error({ fault: describeFault(err) }, 'unclean stop');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  const baseUrl = announcedApiUrl(config.host, server.port);
  // Whether the rate limits are shared, and through which Redis, is told once at start.
  const redis = config.redisUrl === undefined ? {} : { redis: describeRedis(config.redisUrl, config.redisKeyPrefix) };
  logger.info({ url: baseUrl, database: describeDatabase(config.database), ...redis }, 'listening');
  // The log writes in batches (logger.ts): out first, so that the key follows its line.
  logger.flush();
  if (generatedKey !== undefined) printGeneratedKey(generatedKey, baseUrl);
  return 0;
}
