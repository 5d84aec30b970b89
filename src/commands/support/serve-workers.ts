// PETSTORE_WORKERS=N: the primary process of node:cluster. It opens (and so migrates) the
// database once, decides the generated key if there must be one, then forks N workers that
// share the port (the primary hands connections to them in turn) and the database. It
// serves no request itself: it replaces a worker that dies, and on SIGTERM/SIGINT stops them
// all, each finishing its requests in flight, and exits 0 once they have.
import { describeFault } from '../../domain/fault-description.js';
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import type { Config } from '../../config/config.js';
import { describeDatabase } from '../../config/database-config.js';
import { announcedApiUrl, closeContainer, containerOptionsFrom, createContainer, generatedApiKey } from '../../composition/index.js';
import { printGeneratedKey } from './generated-key.js';

const RESTART_DELAY_MS = 1000;

const liveWorkers = (): Worker[] => Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined);

/** Runs the primary; answers 0 once every worker listens, 1 when the service cannot start. */
export async function serveWithWorkers(config: Config, logger: Logger): Promise<number> {
  const prepared = await prepareDatabase(config, logger);
  if (prepared === undefined) return 1;
  return superviseWorkers(config, logger, prepared.generatedKey);
}

// Opens (and so migrates) the database once, and decides the generated key, before any worker
// starts; undefined when the service cannot start.
async function prepareDatabase(config: Config, logger: Logger): Promise<{ readonly generatedKey: string | undefined } | undefined> {
  const container = createContainer({ ...containerOptionsFrom(config, logger), generateKeyWhenNone: true });
  let generatedKey: string | undefined;
  try {
    generatedKey = await generatedApiKey(container);
  } catch (err) {
    logger.fatal({ fault: describeFault(err) }, 'could not start');
    await closeContainer(container).catch(() => undefined);
    return undefined;
  }
  await closeContainer(container);
  return { generatedKey };
}

// Forks the workers, replaces one that dies, and stops them all on SIGTERM/SIGINT.
function superviseWorkers(config: Config, logger: Logger, generatedKey: string | undefined): Promise<number> {
  // Workers read their configuration from the environment as this process did; only the
  // generated key is added, so that every worker accepts the same one.
  const workerEnv = generatedKey === undefined ? {} : { PETSTORE_API_KEYS: generatedKey };
  const listening = new Set<Worker>();
  let stopping = false;
  let started = false;
  let failed = false;

  return new Promise<number>((resolve) => {
    const forkedAt = new Map<Worker, number>();
    const fork = (): void => void forkedAt.set(cluster.fork(workerEnv), Date.now());
    // Each worker finishes its requests in flight; the 'exit' handler ends this process after the last.
    const stopWorkers = (): void => {
      stopping = true;
      for (const worker of liveWorkers()) worker.process.kill('SIGTERM');
    };

    cluster.on('listening', (worker, address) => {
      listening.add(worker);
      if (started || listening.size < config.workers) return;
      started = true;
      announceListening(config, logger, address.port, generatedKey);
      resolve(0);
    });

    cluster.on('exit', (worker, code, signal) => {
      const wasListening = listening.delete(worker);
      if (stopping) {
        if (code !== 0) failed = true;
        if (liveWorkers().length === 0) {
          logger.info(failed ? 'stopped, not cleanly' : 'stopped');
          process.exit(failed ? 1 : 0);
        }
        return;
      }
      if (!wasListening && !started) {
        // A worker that fails before it listens (port taken, database gone) would fail again.
        logger.fatal({ pid: worker.process.pid, code, signal }, 'a worker could not start; stopping the others');
        failed = true;
        stopWorkers();
        if (liveWorkers().length === 0) process.exit(1);
        return;
      }
      logger.error({ pid: worker.process.pid, code, signal }, 'a worker exited; starting another');
      // A worker that keeps dying at once is replaced once a second, not in a tight loop.
      const lived = Date.now() - (forkedAt.get(worker) ?? 0);
      forkedAt.delete(worker);
      if (lived >= RESTART_DELAY_MS) fork();
      else setTimeout(() => stopping || fork(), RESTART_DELAY_MS - lived);
    });

    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) return;
      logger.info({ signal }, 'stopping: each worker finishes its requests in flight');
      // Ctrl-C reaches the workers too (same process group); a second signal is ignored there.
      stopWorkers();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);

    for (let i = 0; i < config.workers; i++) fork();
  });
}

function announceListening(config: Config, logger: Logger, port: number, generatedKey: string | undefined): void {
  const baseUrl = announcedApiUrl(config.host, port);
  logger.info({ url: baseUrl, workers: config.workers, database: describeDatabase(config.database) }, 'all workers listening');
  // The log writes in batches (logger.ts): out first, so that the key follows its line.
  logger.flush();
  if (generatedKey !== undefined) printGeneratedKey(generatedKey, baseUrl);
}
