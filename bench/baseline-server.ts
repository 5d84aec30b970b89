// The bare-metal baseline: the service's three endpoints written as directly as possible on
// node:http + better-sqlite3, with the same schema, settings, authentication and validation
// rules as the project. It is what the project's throughput is measured against.
// Environment: PETSTORE_DB (a seeded file), PETSTORE_API_KEYS, HOST, PORT, BASELINE_SYNCHRONOUS, BASELINE_SERVED_BY and
// BASELINE_EXTRA_WORK_MICROS (below).
// Lists add keyset paging: `after=<id>` and a `Link: <…>; rel="next"` when more pets follow.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import Database from 'better-sqlite3';
import type { Context } from 'koa';

const env = process.env;
const db = new Database(env['PETSTORE_DB'] ?? '', { fileMustExist: true });
// The project's settings (openSqliteDatabase): WAL, durable commits.
db.pragma('busy_timeout = 5000');
db.pragma('journal_mode = WAL');
// BASELINE_SYNCHRONOUS: the bench passes the setting it records beside the figures (servers.ts).
const synchronous = env['BASELINE_SYNCHRONOUS'] ?? 'FULL';
if (!['OFF', 'NORMAL', 'FULL', 'EXTRA'].includes(synchronous)) {
  throw new Error(`BASELINE_SYNCHRONOUS must be OFF, NORMAL, FULL or EXTRA, not "${synchronous}"`);
}
db.pragma(`synchronous = ${synchronous}`);
db.pragma('foreign_keys = ON');

const COLUMNS = 'id, name, category_id AS categoryId, status';
const byId = db.prepare(`SELECT ${COLUMNS} FROM pets WHERE id = ?`);
const page = db.prepare(`SELECT ${COLUMNS} FROM pets WHERE id > ? ORDER BY id LIMIT ?`);
const pageByStatus = db.prepare(`SELECT ${COLUMNS} FROM pets WHERE status = ? AND id > ? ORDER BY id LIMIT ?`);
const insert = db.prepare('INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)');

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
const keyDigests = (env['PETSTORE_API_KEYS'] ?? '').split(',').map((k) => k.trim()).filter((k) => k !== '').map(sha256);
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const DECIMAL = /^[+-]?[0-9]+$/;
const ID = /^[0-9]{1,25}$/;
const STATUSES = new Set(['available', 'pending', 'sold']);
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
const LONE_SURROGATE = /\p{Cs}/u;
const BODY_LIMIT = 16 * 1024;
const INT64_MAX = 2n ** 63n - 1n;

function send(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json), ...headers });
  res.end(json);
}

const fail = (res: ServerResponse, status: number, code: string, message: string, headers?: Record<string, string>): void =>
  send(res, status, { code, message, status }, headers);

/** Every configured key compared, in constant time, whatever matched before. */
function authorised(req: IncomingMessage): boolean {
  const credential = BEARER.exec(req.headers.authorization ?? '')?.[1];
  if (credential === undefined) return false;
  const candidate = sha256(credential);
  let match = false;
  for (const digest of keyDigests) if (timingSafeEqual(candidate, digest)) match = true;
  return match;
}

function list(res: ServerResponse, query: URLSearchParams): void {
  const limits = query.getAll('limit');
  const statuses = query.getAll('status');
  const afters = query.getAll('after');
  if (limits.length > 1 || statuses.length > 1 || afters.length > 1) return fail(res, 400, 'invalid_parameter', 'a parameter is given more than once');
  const limit = limits[0] === undefined ? 20 : DECIMAL.test(limits[0]) ? Number(limits[0]) : NaN;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) return fail(res, 400, 'invalid_parameter', 'limit must be an integer between 1 and 100');
  const status = statuses[0];
  if (status !== undefined && !STATUSES.has(status)) return fail(res, 400, 'invalid_parameter', 'status must be one of available, pending, sold');
  const after = afters[0] === undefined ? 0 : ID.test(afters[0]) ? Number(afters[0]) : NaN;
  if (!Number.isSafeInteger(after)) return fail(res, 400, 'invalid_parameter', 'after must be a pet id');
  // One row more than asked tells whether a next page exists.
  const rows = (status === undefined ? page.all(after, limit + 1) : pageByStatus.all(status, after, limit + 1)) as { id: number }[];
  if (rows.length <= limit) return send(res, 200, rows);
  rows.length = limit;
  const next = `/v1/pets?limit=${limit}${status === undefined ? '' : `&status=${status}`}&after=${rows[limit - 1]!.id}`;
  send(res, 200, rows, { Link: `<${next}>; rel="next"` });
}

function get(res: ServerResponse, text: string): void {
  if (!ID.test(text)) return fail(res, 400, 'invalid_parameter', 'petId must be a positive integer (int64)');
  const id = text.length < 16 ? Number(text) : BigInt(text);
  if (id < 1 || (typeof id === 'bigint' && id > INT64_MAX)) return fail(res, 400, 'invalid_parameter', 'petId must be a positive integer (int64)');
  const pet = typeof id === 'number' || id <= BigInt(Number.MAX_SAFE_INTEGER) ? byId.get(Number(id)) : undefined;
  if (pet === undefined) return fail(res, 404, 'pet_not_found', `No pet has id ${text}`);
  send(res, 200, pet);
}

/** Why `body` is not a NewPet, or undefined when it is one. */
function newPetProblem(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body must be a JSON object';
  const { name, categoryId, status, ...unknown } = body as Record<string, unknown>;
  if (Object.keys(unknown).length > 0) return 'the body has unknown fields';
  if (typeof name !== 'string' || LONE_SURROGATE.test(name)) return '/name must be a well-formed string';
  const length = [...name].length;
  if (length === 0 || length > 100 || name.trim() === '' || CONTROL.test(name)) return '/name must be 1 to 100 characters, not blank, no control characters';
  if (!Number.isSafeInteger(categoryId)) return '/categoryId must be a safe integer';
  if (status !== undefined && !(typeof status === 'string' && STATUSES.has(status))) return '/status must be one of available, pending, sold';
  return undefined;
}

function create(req: IncomingMessage, res: ServerResponse): void {
  if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
    req.resume();
    return fail(res, 415, 'unsupported_media_type', 'The request body must be JSON');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= BODY_LIMIT) chunks.push(chunk);
  });
  req.on('end', () => {
    if (size > BODY_LIMIT) return fail(res, 413, 'payload_too_large', `The request body must not exceed ${BODY_LIMIT} bytes`);
    if (size === 0) return fail(res, 400, 'missing_body', 'The request needs a JSON body');
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks, size).toString('utf8'));
    } catch (err) {
      return fail(res, 400, 'malformed_json', `The request body is not valid JSON: ${(err as Error).message}`);
    }
    const problem = newPetProblem(body);
    if (problem !== undefined) return fail(res, 400, 'validation_failed', `The request body is invalid: ${problem}`);
    const { name, categoryId, status = 'available' } = body as { name: string; categoryId: number; status?: string };
    const id = Number(insert.run(name, categoryId, status).lastInsertRowid);
    send(res, 201, { id, name, categoryId, status });
  });
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '/';
  const mark = url.indexOf('?');
  const path = mark === -1 ? url : url.slice(0, mark);
  const isList = path === '/v1/pets' || path === '/v1/pets/';
  const petId = isList ? undefined : /^\/v1\/pets\/([^/]+)\/?$/.exec(path)?.[1];
  if (!isList && petId === undefined) return fail(res, 404, 'not_found', `No resource at ${req.method} ${path}`);
  if (!authorised(req)) {
    req.resume();
    return fail(res, 401, 'unauthorized', 'The API key is missing or not valid', { 'WWW-Authenticate': 'Bearer realm="petstore"' });
  }
  if (req.method === 'GET' && isList) return list(res, new URLSearchParams(mark === -1 ? '' : url.slice(mark + 1)));
  if (req.method === 'GET') return get(res, petId!);
  if (req.method === 'POST' && isList) return create(req, res);
  req.resume();
  fail(res, 405, 'method_not_allowed', `${req.method} is not allowed on ${path}`, { Allow: isList ? 'GET, POST' : 'GET' });
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
/**
 * BASELINE_EXTRA_WORK_MICROS=N (`npm run bench -- --extra-work=N`): N microseconds of busy work
 * before each request is handled, to see what that much more work per request costs in
 * throughput on this machine (0, the default, adds nothing).
 */
function withExtraWork(micros: number, handler: RequestListener): RequestListener {
  if (micros === 0) return handler;
  const nanos = BigInt(micros * 1000);
  return (req, res) => {
    const until = process.hrtime.bigint() + nanos;
    while (process.hrtime.bigint() < until);
    handler(req, res);
  };
}

async function servedBy(kind: string, handler: RequestListener): Promise<RequestListener> {
  if (kind === 'node') return handler;
  if (kind !== 'koa' && kind !== 'koa-router') throw new Error(`BASELINE_SERVED_BY must be node, koa or koa-router, not "${kind}"`);
  const { default: Koa } = await import('koa');
  const app = new Koa();
  const handOver = (ctx: Context): void => {
    ctx.respond = false;
    handler(ctx.req, ctx.res);
  };
  if (kind === 'koa') return app.use(handOver).callback();
  const { default: Router } = await import('@koa/router');
  const router = new Router();
  router.get('/v1/pets', handOver).post('/v1/pets', handOver).get('/v1/pets/:petId', handOver);
  return app.use(router.routes()).use(router.allowedMethods()).callback();
}

const server = createServer(
  { maxHeaderSize: 16 * 1024, headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000 },
  await servedBy(env['BASELINE_SERVED_BY'] ?? 'node', withExtraWork(Number(env['BASELINE_EXTRA_WORK_MICROS'] ?? 0), handle)),
);

server.listen(Number(env['PORT'] ?? 0), env['HOST'] ?? '127.0.0.1', () => {
  const address = server.address();
  if (typeof address === 'object' && address !== null) {
    process.stdout.write(`${JSON.stringify({ msg: 'listening', url: `http://${address.address}:${address.port}/v1` })}\n`);
  }
});

const stop = (): void => {
  server.close(() => {
    db.close();
    process.exit(0);
  });
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
