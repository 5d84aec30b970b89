// A small typed client of the pet store's HTTP interface, on fetch alone (no dependency):
// it runs in Node ≥ 20, Deno, Bun and browsers.
import { type BearerProvider, bearerOf } from './bearer.js';
import { linkTarget } from './link-header.js';
import { CLIENT_ERROR_CODES, PetStoreError } from './pet-store-error.js';
import { errorOf, networkFailure, readJson } from './responses.js';
import { DEFAULT_RETRY_POLICY, delayBefore, isRetryableStatus, type RetryPolicy, sleep } from './retry.js';
import {
  type CallOptions,
  type ChangePetOptions,
  isPet,
  type ListPetsParams,
  type NewPet,
  type Pet,
  type PetPage,
  type PetPatch,
  type PetWithETag,
} from './types.js';

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

/** Options of {@link PetStoreClient.createPet}. */
export interface CreatePetOptions extends CallOptions {
  /**
   * The Idempotency-Key of the creation (1 to 255 printable ASCII characters): every attempt
   * of this call sends it, so the pet is created once however often the call is retried.
   * A random UUID when absent; give your own to make retries across calls (or processes) safe.
   */
  readonly idempotencyKey?: string;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,255}$/;

/**
 * The pet store's HTTP interface as typed methods. Every failure is a {@link PetStoreError}
 * with the service's code, the HTTP status and the request id. Network errors, timeouts, 408,
 * 429, 5xx and (for a creation) 409 `idempotency_key_in_use` are retried with backoff: reads
 * change nothing, a creation carries an Idempotency-Key, and a change or deletion repeated
 * changes nothing more, though its answer may then be a 412 or 404 (see {@link PetStoreError.attempts}).
 *
 * @example
 * const client = new PetStoreClient({ baseUrl: 'http://127.0.0.1:3000/v1', apiKey });
 * const rex = await client.createPet({ name: 'Rex', categoryId: 1 });
 * for await (const pet of client.allPets({ status: 'available' })) console.log(pet.name);
 */
export class PetStoreClient {
  private readonly base: URL;
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

  /** The first page of pets, in ascending id order; follow `next` with {@link nextPage}. */
  async listPets(query: ListPetsParams = {}, options: CallOptions = {}): Promise<PetPage> {
    const url = new URL('pets', this.base);
    if (query.limit !== undefined) url.searchParams.set('limit', String(query.limit));
    if (query.status !== undefined) url.searchParams.set('status', query.status);
    return this.page(url, options);
  }

  /** The page after `page` (its `Link: rel="next"`, followed as it is), or undefined after the last one. */
  async nextPage(page: PetPage, options: CallOptions = {}): Promise<PetPage | undefined> {
    return page.next === undefined ? undefined : this.page(new URL(page.next), options);
  }

  /** Every page of the list, one after the other, following `Link: rel="next"`. */
  async *pages(query: ListPetsParams = {}, options: CallOptions = {}): AsyncGenerator<PetPage, void, undefined> {
    let page: PetPage | undefined = await this.listPets(query, options);
    while (page !== undefined) {
      yield page;
      page = await this.nextPage(page, options);
    }
  }

  /** Every pet of the list, page after page (each fetched when the one before is used up). */
  async *allPets(query: ListPetsParams = {}, options: CallOptions = {}): AsyncGenerator<Pet, void, undefined> {
    for await (const page of this.pages(query, options)) yield* page.pets;
  }

  /** Creates a pet, at most once however often it is retried (see {@link CreatePetOptions.idempotencyKey}). */
  async createPet(newPet: NewPet, options: CreatePetOptions = {}): Promise<Pet> {
    const key = options.idempotencyKey ?? globalThis.crypto.randomUUID();
    if (!IDEMPOTENCY_KEY.test(key)) throw new TypeError('idempotencyKey must be 1 to 255 printable ASCII characters');
    const answer = await this.call(new URL('pets', this.base), options, {
      method: 'POST',
      // A Structured Field string: only " and \ need escaping.
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': `"${key.replace(/["\\]/g, '\\$&')}"` },
      body: JSON.stringify(newPet),
    });
    return this.expectPet(answer);
  }

  /**
   * One pet by its id.
   * @deprecated The service removes `GET /pets/{petId}` on 2030-12-05: list with a status filter instead.
   */
  async getPet(id: number, options: CallOptions = {}): Promise<Pet> {
    return (await this.getPetWithETag(id, options)).pet;
  }

  /**
   * One pet by its id, with its ETag (for {@link updatePet} and {@link deletePet} with `ifMatch`).
   * @deprecated As {@link getPet}: the service removes `GET /pets/{petId}` on 2030-12-05.
   */
  async getPetWithETag(id: number, options: CallOptions = {}): Promise<PetWithETag> {
    return this.tagged(await this.call(this.petUrl(id), options));
  }

  /** Changes a pet with a JSON merge patch; fails with `invalid_transition` (409) for a status its current one does not lead to. */
  async updatePet(id: number, patch: PetPatch, options: ChangePetOptions = {}): Promise<PetWithETag> {
    return this.tagged(
      await this.call(this.petUrl(id), options, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/merge-patch+json', ...ifMatchHeader(options) },
        body: JSON.stringify(patch),
      }),
    );
  }

  /** Deletes a pet for good; fails with `pet_not_found` (404) when there is none. */
  async deletePet(id: number, options: ChangePetOptions = {}): Promise<void> {
    await this.call(this.petUrl(id), options, { method: 'DELETE', headers: ifMatchHeader(options) });
  }

  private petUrl(id: number): URL {
    if (!Number.isSafeInteger(id) || id < 1) throw new TypeError('id must be a positive integer');
    return new URL(`pets/${id}`, this.base);
  }

  private tagged(answer: Answer): PetWithETag {
    const pet = this.expectPet(answer);
    const etag = answer.response.headers.get('ETag');
    if (etag === null) throw this.unexpected('the answer has no ETag', answer);
    return { pet, etag };
  }

  private async page(url: URL, options: CallOptions): Promise<PetPage> {
    const answer = await this.call(url, options);
    const { body, response } = answer;
    if (!Array.isArray(body) || !body.every(isPet)) throw this.unexpected('the pet list is not an array of pets', answer);
    const next = linkTarget(response.headers.get('Link'), 'next');
    if (next === undefined) return { pets: body, next: undefined };
    const nextUrl = new URL(next, response.url || url);
    // The key goes only where the client was pointed: never follow a link to another origin with it
    // (redirects are not followed either, for the same reason).
    if (nextUrl.origin !== this.base.origin)
      throw this.unexpected('the next page is on another origin; not sending the API key there', answer);
    return { pets: body, next: nextUrl.href };
  }

  private expectPet(answer: Answer): Pet {
    if (!isPet(answer.body)) throw this.unexpected('the answer is not a pet', answer);
    return answer.body;
  }

  private unexpected(message: string, { response, requestId, attempts }: Omit<Answer, 'body'>): PetStoreError {
    return new PetStoreError({
      code: CLIENT_ERROR_CODES.unexpected,
      message,
      status: response.status,
      requestId: response.headers.get('X-Request-Id') ?? requestId,
      attempts,
    });
  }

  /** One call, retried per the policy; answers the decoded JSON body of a 2xx answer. */
  private async call(
    url: URL,
    options: CallOptions,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<Answer> {
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

/** A 2xx answer of a call: its JSON body (undefined for a 204), the request id sent, and the attempts it took. */
interface Answer {
  readonly body: unknown;
  readonly response: Response;
  readonly requestId: string;
  readonly attempts: number;
}

const ifMatchHeader = ({ ifMatch }: ChangePetOptions): Record<string, string> => (ifMatch === undefined ? {} : { 'If-Match': ifMatch });
