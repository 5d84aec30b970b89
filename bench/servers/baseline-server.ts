// The bare-metal baseline: the service's three endpoints written as directly as possible on
// node:http (baseline-handler.ts), with the same schema, settings, authentication and validation
// rules as the project, on better-sqlite3 or, for a postgres:// PETSTORE_DB, on one pg pool.
// It is what the project's throughput is measured against.
// Environment: PETSTORE_DB (a seeded SQLite file or a postgres:// URL of a seeded database), PETSTORE_API_KEYS, HOST, PORT,
// BASELINE_SYNCHRONOUS (SQLite), BASELINE_PG_POOL_SIZE (PostgreSQL), BASELINE_SERVED_BY (below).
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { Context } from 'koa';
import { type BaselineStorage, baselineHandler } from './baseline-handler.js';

const env = process.env;

/** The storage PETSTORE_DB names; each is imported only when asked for, so the SQLite baseline never loads pg. */
async function openStorage(database: string): Promise<BaselineStorage> {
  if (/^postgres(ql)?:\/\//i.test(database)) {
    const { postgresStorage } = await import('./baseline-postgres.js');
    return postgresStorage(database, Number(env['BASELINE_PG_POOL_SIZE'] ?? 10));
  }
  const { sqliteStorage } = await import('./baseline-sqlite.js');
  return sqliteStorage(database, env['BASELINE_SYNCHRONOUS'] ?? 'FULL');
}

/**
 * BASELINE_SERVED_BY says what hands requests to the handler above, so that each layer under
 * the project is measured with the same work behind it:
 * - `node` (the default): node:http itself; the baseline.
 * - `koa`: the one middleware of a bare Koa 3 app, which leaves the response to the handler
 *   (ctx.respond = false); the Koa floor: the least any Koa server pays per request (Koa's
 *   context, its on-finished listeners, its middleware promise).
 * - `koa-router`: @koa/router's routes() and allowedMethods() in a bare Koa 3 app, the three
 *   routes of the service each handing the request to the handler; the card floor: the least
 *   a server built as the design card says (Koa and @koa/router) can cost.
 * Koa and the router are imported only when asked for, so the baseline loads neither.
 */
async function servedBy(kind: string, handler: RequestListener): Promise<RequestListener> {
  if (kind === 'node') return handler;
  if (kind !== 'koa' && kind !== 'koa-router') throw new Error(`BASELINE_SERVED_BY must be node, koa or koa-router, not "${kind}"`);
  const { default: Koa } = await import('koa');
  const app = new Koa();
  const handOver = (ctx: Context): void => {
    ctx.respond = false;
    handler(ctx.req, ctx.res);
  };
  if (kind === 'koa') return listenerOf(app.use(handOver).callback());
  const { default: Router } = await import('@koa/router');
  const router = new Router();
  router.get('/v1/pets', handOver).post('/v1/pets', handOver).get('/v1/pets/:petId', handOver);
  return listenerOf(app.use(router.routes()).use(router.allowedMethods()).callback());
}

/** A Koa app's callback as a node:http listener: not awaited, as Koa answers every error itself (ctx.onerror). */
const listenerOf =
  (callback: (req: IncomingMessage, res: ServerResponse) => Promise<void>): RequestListener =>
  (req, res) =>
    void callback(req, res);

async function serve(): Promise<void> {
  const storage = await openStorage(env['PETSTORE_DB'] ?? '');
  const handle = baselineHandler(storage, env['PETSTORE_API_KEYS'] ?? '');
  const server = createServer(
    { maxHeaderSize: 16 * 1024, headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000 },
    await servedBy(env['BASELINE_SERVED_BY'] ?? 'node', handle),
  );

  server.listen(Number(env['PORT'] ?? 0), env['HOST'] ?? '127.0.0.1', () => {
    const address = server.address();
    if (typeof address === 'object' && address !== null) {
      process.stdout.write(`${JSON.stringify({ msg: 'listening', url: `http://${address.address}:${address.port}/v1` })}\n`);
    }
  });

  const stop = (): void => {
    server.close(() => {
      void Promise.resolve(storage.close()).finally(() => process.exit(0));
    });
    server.closeAllConnections();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

await serve();
