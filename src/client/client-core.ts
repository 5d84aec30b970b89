// What every call of the typed client shares: the base URL and the key, the retries, and what
// it checks of an answer (JSON, an ETag, a next page on the same origin).
import { type BearerProvider, bearerOf } from './bearer.js';
import { linkTarget } from './link-header.js';
import { CLIENT_ERROR_CODES, PetStoreError } from './pet-store-error.js';
import { errorOf, networkFailure, readJson } from './responses.js';
import { DEFAULT_RETRY_POLICY, delayBefore, isRetryableStatus, type RetryPolicy, sleep } from './retry.js';
import type { CallOptions } from './types.js';

/** How a {@link PetStoreClient} reaches the service, and with what credential: `apiKey` or `bearer`, exactly one. */
export interface PetStoreClientOptions {
  /** The API's base URL, `/v1` included: `http://127.0.0.1:3000/v1`, or `https://example.org/petstore/v1` when mounted. */
  readonly baseUrl: string | URL;
  /** The API key, sent as `Authorization: Bearer <key>`; only ever to the origin of `baseUrl`. */
  readonly apiKey?: string;
  /** The credential of each request, asked for anew each time (see {@link BearerProvider}); sent as `apiKey` is. */
  readonly bearer?: BearerProvider;
  /** The fetch to use (default: the global one), for a proxy agent, tracing or tests. */
  readonly fetch?: typeof globalThis.fetch;
  /** How calls are retried (default {@link DEFAULT_RETRY_POLICY}). */
  readonly retry?: Partial<RetryPolicy>;
  /** How long one attempt may take, in ms, before it counts as failed (default 10 000). */
  readonly timeoutMs?: number;
}

/** A 2xx answer of a call: its JSON body (undefined for a 204), the request id sent, and the attempts it took. */
export interface Answer {
  readonly body: unknown;
  readonly response: Response;
  readonly requestId: string;
  readonly attempts: number;
}

/** What a call sends beside its URL. */
export interface CallInit {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,255}$/;

/** The If-Match header of a conditional change, when `ifMatch` is given. */
export const ifMatchHeader = ({ ifMatch }: { readonly ifMatch?: string }): Record<string, string> =>
  ifMatch === undefined ? {} : { 'If-Match': ifMatch };

/** The Idempotency-Key header of a creation: `key`, or a random UUID. */
export function idempotencyKeyHeader(key: string = globalThis.crypto.randomUUID()): Record<string, string> {
  if (!IDEMPOTENCY_KEY.test(key)) throw new TypeError('idempotencyKey must be 1 to 255 printable ASCII characters');
  // A Structured Field string: only " and \ need escaping.
  return { 'Idempotency-Key': `"${key.replace(/["\\]/g, '\\$&')}"` };
}

/** The calls and checks of a client, for a part of it that is not its subclass (`client.categories`). */
export interface ClientCalls {
  call(url: URL, options: CallOptions, init?: CallInit): Promise<Answer>;
  /** The URL of `path`, below the base URL. */
  url(path: string): URL;
  resourceUrl(collection: string, id: number): URL;
  listPage<T>(
    url: URL,
    options: CallOptions,
    isItem: (value: unknown) => value is T,
    what: string,
  ): Promise<{ readonly items: T[]; readonly next: string | undefined }>;
  etagOf(answer: Answer): string;
  expect<T>(answer: Answer, is: (value: unknown) => value is T, message: string): T;
}

/** The calls and checks the client's methods are made of. */
export abstract class ClientCore {
  protected readonly base: URL;
  private readonly bearer: () => Promise<string>;
  private readonly fetch: typeof globalThis.fetch;
  private readonly policy: RetryPolicy;
  private readonly timeoutMs: number;

  constructor(options: PetStoreClientOptions) {
    // A trailing slash makes relative references resolve below /v1, not beside it.
    this.base = new URL(String(options.baseUrl).replace(/\/*$/, '/'));
    this.bearer = bearerOf(options);
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** These calls and checks, for a part of the client that is not its subclass. */
  protected calls(): ClientCalls {
    return {
      call: (url, options, init) => this.call(url, options, init),
      url: (path) => new URL(path, this.base),
      resourceUrl: (collection, id) => this.resourceUrl(collection, id),
      listPage: (url, options, isItem, what) => this.listPage(url, options, isItem, what),
      etagOf: (answer) => this.etagOf(answer),
      expect: (answer, is, message) => this.expect(answer, is, message),
    };
  }

  /** The URL of resource `id` in `collection` (`pets/7`); a TypeError for an id that is not a positive integer. */
  protected resourceUrl(collection: string, id: number): URL {
    if (!Number.isSafeInteger(id) || id < 1) throw new TypeError('id must be a positive integer');
    return new URL(`${collection}/${id}`, this.base);
  }

  /** The answer's ETag; an `unexpected_response` without one. */
  protected etagOf(answer: Answer): string {
    const etag = answer.response.headers.get('ETag');
    if (etag === null) throw this.unexpected('the answer has no ETag', answer);
    return etag;
  }

  /** One page of a list whose items are `isItem` (else an `unexpected_response` naming `what`), and the URL of the next. */
  protected async listPage<T>(
    url: URL,
    options: CallOptions,
    isItem: (value: unknown) => value is T,
    what: string,
  ): Promise<{ readonly items: T[]; readonly next: string | undefined }> {
    const answer = await this.call(url, options);
    const { body, response } = answer;
    if (!Array.isArray(body) || !body.every(isItem)) throw this.unexpected(`the ${what} list is not an array of ${what}s`, answer);
    const next = linkTarget(response.headers.get('Link'), 'next');
    if (next === undefined) return { items: body, next: undefined };
    const nextUrl = new URL(next, response.url || url);
    // The key goes only where the client was pointed: never follow a link to another origin with it
    // (redirects are not followed either, for the same reason).
    if (nextUrl.origin !== this.base.origin)
      throw this.unexpected('the next page is on another origin; not sending the API key there', answer);
    return { items: body, next: nextUrl.href };
  }

  /** The answer's body when it is `is` (else an `unexpected_response` with `message`). */
  protected expect<T>(answer: Answer, is: (value: unknown) => value is T, message: string): T {
    if (!is(answer.body)) throw this.unexpected(message, answer);
    return answer.body;
  }

  protected unexpected(message: string, { response, requestId, attempts }: Omit<Answer, 'body'>): PetStoreError {
    return new PetStoreError({
      code: CLIENT_ERROR_CODES.unexpected,
      message,
      status: response.status,
      requestId: response.headers.get('X-Request-Id') ?? requestId,
      attempts,
    });
  }

  /** One call, retried per the policy; answers the decoded JSON body of a 2xx answer. */
  protected async call(url: URL, options: CallOptions, init: CallInit = {}): Promise<Answer> {
    if (url.origin !== this.base.origin) throw new TypeError('the client only calls the origin of its baseUrl');
    const requestId = options.requestId ?? globalThis.crypto.randomUUID();
    if (!REQUEST_ID.test(requestId)) throw new TypeError('requestId must be 1 to 128 of A-Z a-z 0-9 . _ : -');
    const sent = { Accept: 'application/json', 'X-Request-Id': requestId, ...init.headers };
    for (let attempt = 1; ; attempt += 1) {
      const headers = { ...sent, Authorization: `Bearer ${await this.bearer()}` };
      const signal =
        options.signal === undefined
          ? AbortSignal.timeout(this.timeoutMs)
          : AbortSignal.any([options.signal, AbortSignal.timeout(this.timeoutMs)]);
      let failure: PetStoreError;
      try {
        const response = await this.fetch(url, { ...init, headers, signal, redirect: 'manual' });
        const body = await readJson(response);
        if (response.ok) {
          const answer = { body, response, requestId, attempts: attempt };
          // 204 No Content (a deletion) is the one success without a body.
          if (response.status === 204) return answer;
          if (body === undefined) throw this.unexpected(`the ${response.status} answer is not JSON`, answer);
          return answer;
        }
        failure = errorOf(response, body, requestId, attempt);
        if (!isRetryableStatus(response.status, failure.code)) throw failure;
      } catch (err) {
        if (err instanceof PetStoreError) throw err;
        if (options.signal?.aborted) throw options.signal.reason;
        failure = networkFailure(err, requestId, attempt);
      }
      const wait = attempt < this.policy.attempts ? delayBefore(attempt + 1, this.policy, failure.retryAfterSeconds) : undefined;
      if (wait === undefined) throw failure;
      await sleep(wait, options.signal);
    }
  }
}
