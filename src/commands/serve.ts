// `petstore serve` (and `npm start`): configuration from the environment, the composition
// root, the HTTP server, and a clean stop on SIGTERM/SIGINT (stop accepting, finish requests,
// close the database). Opening the database migrates its schema (under a lock, so several
// instances may start at once).
import 'reflect-metadata';
import type Koa from 'koa';
import { generateApiKey } from '../adapters/auth/api-key.js';
import { startHttpServer } from '../adapters/http/http-server.js';
import { API_BASE_PATH } from '../adapters/http/create-http-app.js';
import type { ServiceState } from '../adapters/http/service-state.js';
import { describeDatabase, loadConfig } from '../config.js';
import { closeContainer, createContainer } from '../container.js';
import { type ApiKeyStore, isActiveApiKey } from '../domain/index.js';
import { createLogger, describeFault } from '../logger.js';
import { TOKENS } from '../tokens.js';

/**
 * Starts the server; answers 0 once it listens (it then runs until SIGTERM or SIGINT, which
 * end the process), or 1 when it cannot start.
 */
export async function serve(env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const loaded = loadConfig(env);
  if (loaded._tag === 'Left') {
    process.stderr.write(`petstore: invalid configuration, not starting:\n${loaded.left.map((l) => `  ${l}\n`).join('')}`);
    return 1;
  }
  const config = loaded.right;
  const logger = createLogger(config.logLevel);

  const container = createContainer(config, logger);
  let server;
  let generatedKey: string | undefined;
  try {
    // With no key configured and none stored, this run accepts one generated key, so that a
    // newcomer can call the API at once; with keys made by `petstore keys create`, it does not.
    if (config.apiKeys.length === 0) {
      const stored = await container.getAsync<ApiKeyStore>(TOKENS.ApiKeyStore);
      if (!(await stored.list()).some(isActiveApiKey)) {
        generatedKey = generateApiKey();
        container.rebind<readonly string[]>(TOKENS.StaticApiKeys).toConstantValue([generatedKey]);
      }
    }
    const app = await container.getAsync<Koa>(TOKENS.HttpApp);
    server = await startHttpServer(app.callback(), { host: config.host, port: config.port });
  } catch (err) {
    logger.fatal({ fault: describeFault(err) }, 'could not start');
    // The container keeps a failed resolution and rethrows it on close: it was logged just above.
    await closeContainer(container).catch(() => undefined);
    return 1;
  }
  const baseUrl = `${server.url}${API_BASE_PATH}`;
  logger.info({ url: baseUrl, database: describeDatabase(config.database) }, 'listening');
  if (generatedKey !== undefined) {
    // Printed once, on purpose. It is valid for this run only.
    process.stdout.write(
      `\nNo PETSTORE_API_KEYS set and no stored key: this run accepts one generated API key ` +
        `(set PETSTORE_API_KEYS, or create keys with "petstore keys create").\n\n` +
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
  return 0;
}
