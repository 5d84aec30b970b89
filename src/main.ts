// The server process: configuration from the environment, the composition root, the HTTP
// server, and a clean stop on SIGTERM/SIGINT (stop accepting, finish requests, close the database).
// Opening the database migrates its schema (under a lock, so several instances may start at once).
import 'reflect-metadata';
import type Koa from 'koa';
import { generateApiKey } from './adapters/auth/api-key.js';
import { startHttpServer } from './adapters/http/http-server.js';
import { API_BASE_PATH } from './adapters/http/create-http-app.js';
import { type Config, describeDatabase, loadConfig } from './config.js';
import { closeContainer, createContainer } from './container.js';
import { createLogger, describeFault } from './logger.js';
import type { ServiceState } from './adapters/http/service-state.js';
import { TOKENS } from './tokens.js';

async function main(): Promise<void> {
  const loaded = loadConfig(process.env);
  if (loaded._tag === 'Left') {
    process.stderr.write(`petstore: invalid configuration, not starting:\n${loaded.left.map((l) => `  ${l}\n`).join('')}`);
    process.exitCode = 1;
    return;
  }
  const generatedKey = loaded.right.apiKeys.length === 0 ? generateApiKey() : undefined;
  const config: Config = generatedKey === undefined ? loaded.right : { ...loaded.right, apiKeys: [generatedKey] };
  const logger = createLogger(config.logLevel);

  const container = createContainer(config, logger);
  let server;
  try {
    const app = await container.getAsync<Koa>(TOKENS.HttpApp);
    server = await startHttpServer(app.callback(), { host: config.host, port: config.port });
  } catch (err) {
    logger.fatal({ fault: describeFault(err) }, 'could not start');
    // The container keeps a failed resolution and rethrows it on close: it was logged just above.
    await closeContainer(container).catch(() => undefined);
    process.exitCode = 1;
    return;
  }
  const baseUrl = `${server.url}${API_BASE_PATH}`;
  logger.info({ url: baseUrl, database: describeDatabase(config.database) }, 'listening');
  if (generatedKey !== undefined) {
    // Printed once, on purpose, so that a newcomer can call the API at once. It is valid for this run only.
    process.stdout.write(
      `\nNo PETSTORE_API_KEYS set: this run accepts one generated API key (set PETSTORE_API_KEYS to choose your own).\n\n` +
        `  ${generatedKey}\n\n  curl -H "Authorization: Bearer ${generatedKey}" ${baseUrl}/pets\n\n`,
    );
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: finishing requests in flight');
    // /readyz answers 503 from now on, so a load balancer stops sending traffic here.
    container.get<ServiceState>(TOKENS.ServiceState).draining = true;
    void server
      .close()
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
}

await main();
