// The baseline's request handler: the service's three endpoints written as directly as possible
// on node:http, with the same authentication and validation rules as the project, over a small
// storage interface, so that the SQLite and the PostgreSQL baselines share every line but the queries.
// Lists add keyset paging: `after=<id>` and a `Link: <…>; rel="next"` when more pets follow.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

export interface PetRow {
  readonly id: number;
  readonly name: string;
  readonly categoryId: number;
  readonly status: string;
}

/**
 * A value now (better-sqlite3 answers synchronously) or later (pg): the SQLite baseline never
 * pays for a promise it does not need, so its figures stay what they were before PostgreSQL came.
 */
export type Answer<T> = T | Promise<T>;

/** The baseline's storage: its three queries and one insert, as plain as its database allows. */
export interface BaselineStorage {
  byId(id: number): Answer<PetRow | undefined>;
  /** Up to `limit` pets with an id above `after`, in id order, of `status` when it is given. */
  page(after: number, limit: number, status: string | undefined): Answer<PetRow[]>;
  /** The new pet's id. */
  insert(name: string, categoryId: number, status: string): Answer<number>;
  close(): Answer<void>;
}

const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const DECIMAL = /^[+-]?[0-9]+$/;
const ID = /^[0-9]{1,25}$/;
const STATUSES = new Set(['available', 'pending', 'sold']);
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
const LONE_SURROGATE = /\p{Cs}/u;
const BODY_LIMIT = 16 * 1024;
const INT64_MAX = 2n ** 63n - 1n;

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

function send(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json), ...headers });
  res.end(json);
}

const fail = (res: ServerResponse, status: number, code: string, message: string, headers?: Record<string, string>): void =>
  send(res, status, { code, message, status }, headers);

/** Hands `answer` to `then` at once when it is a value; a failed promise is a 500, as the project answers one. */
function when<T>(res: ServerResponse, answer: Answer<T>, then: (value: T) => void): void {
  if (!(answer instanceof Promise)) return then(answer);
  answer.then(then, () => fail(res, 500, 'internal_error', 'The storage failed'));
}

/** Why `body` is not a NewPet, or undefined when it is one. */
function newPetProblem(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body must be a JSON object';
  const { name, categoryId, status, ...unknown } = body as Record<string, unknown>;
  if (Object.keys(unknown).length > 0) return 'the body has unknown fields';
  if (typeof name !== 'string' || LONE_SURROGATE.test(name)) return '/name must be a well-formed string';
  const length = [...name].length;
  if (length === 0 || length > 100 || name.trim() === '' || CONTROL.test(name))
    return '/name must be 1 to 100 characters, not blank, no control characters';
  if (!Number.isSafeInteger(categoryId)) return '/categoryId must be a safe integer';
  if (status !== undefined && !(typeof status === 'string' && STATUSES.has(status)))
    return '/status must be one of available, pending, sold';
  return undefined;
}

/** The handler of every request, over `storage`, accepting the comma-separated `apiKeys`. */
export function baselineHandler(storage: BaselineStorage, apiKeys: string): RequestListener {
  const keyDigests = apiKeys
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '')
    .map(sha256);

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
    if (limits.length > 1 || statuses.length > 1 || afters.length > 1)
      return fail(res, 400, 'invalid_parameter', 'a parameter is given more than once');
    const limit = limits[0] === undefined ? 20 : DECIMAL.test(limits[0]) ? Number(limits[0]) : NaN;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      return fail(res, 400, 'invalid_parameter', 'limit must be an integer between 1 and 100');
    const status = statuses[0];
    if (status !== undefined && !STATUSES.has(status))
      return fail(res, 400, 'invalid_parameter', 'status must be one of available, pending, sold');
    const after = afters[0] === undefined ? 0 : ID.test(afters[0]) ? Number(afters[0]) : NaN;
    if (!Number.isSafeInteger(after)) return fail(res, 400, 'invalid_parameter', 'after must be a pet id');
    // One row more than asked tells whether a next page exists.
    when(res, storage.page(after, limit + 1, status), (rows) => {
      if (rows.length <= limit) return send(res, 200, rows);
      rows.length = limit;
      const next = `/v1/pets?limit=${limit}${status === undefined ? '' : `&status=${status}`}&after=${rows[limit - 1]!.id}`;
      send(res, 200, rows, { Link: `<${next}>; rel="next"` });
    });
  }

  function get(res: ServerResponse, text: string): void {
    if (!ID.test(text)) return fail(res, 400, 'invalid_parameter', 'petId must be a positive integer (int64)');
    const id = text.length < 16 ? Number(text) : BigInt(text);
    if (id < 1 || (typeof id === 'bigint' && id > INT64_MAX))
      return fail(res, 400, 'invalid_parameter', 'petId must be a positive integer (int64)');
    const found = (pet: PetRow | undefined): void =>
      pet === undefined ? fail(res, 404, 'pet_not_found', `No pet has id ${text}`) : send(res, 200, pet);
    if (typeof id === 'bigint' && id > BigInt(Number.MAX_SAFE_INTEGER)) return found(undefined);
    when(res, storage.byId(Number(id)), found);
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
      when(res, storage.insert(name, categoryId, status), (id) => send(res, 201, { id, name, categoryId, status }));
    });
  }

  return (req, res) => {
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
  };
}
