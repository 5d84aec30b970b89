// The typed client against the real service over HTTP. Every answer it receives from the
// service is checked against docs/openapi.yaml; faults (lost answers, 5xx, 429, timeouts) are
// played by wrapping its fetch.
import Koa from 'koa';
import mount from 'koa-mount';
import { expect } from 'chai';
import { type RunningHttpServer, startHttpServer } from '../../src/adapters/http/http-server.js';
import type { MemoryIdempotencyStore } from '../../src/adapters/memory/memory-idempotency-store.js';
import { MemoryPetRepository } from '../../src/adapters/memory/memory-pet-repository.js';
import { PetStoreClient, type PetStoreClientOptions, PetStoreError } from '../../src/client/index.js';
import { type IdempotencyStore, type PetRepository, StorageUnavailableError } from '../../src/domain/index.js';
import { createPetStore } from '../../src/composition/pet-store.js';
import { TOKENS } from '../../src/composition/tokens.js';
import { urlOf } from '../support/fetch-input.js';
import { assertDocumented } from '../support/openapi-contract.js';
import { startTestServer, TEST_API_KEY, type TestServer } from '../support/test-server.js';

/** The global fetch, every answer checked against the OpenAPI document (with the mount prefix taken off the path). */
const checkedFetch =
  (mountPrefix = ''): typeof fetch =>
  async (input, init) => {
    const res = await fetch(input, init);
    const text = await res.clone().text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const url = new URL(urlOf(input));
    url.pathname = url.pathname.slice(mountPrefix.length);
    await assertDocumented(init?.method ?? 'GET', url.href, { status: res.status, headers: Object.fromEntries(res.headers), json });
    return res;
  };

interface Sent {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
}

/** A fetch that records each request, and may replace an attempt's outcome. */
function recording(inner: typeof fetch, override?: (attempt: number, send: () => Promise<Response>) => Promise<Response>) {
  const sent: Sent[] = [];
  const wrapped: typeof fetch = async (input, init) => {
    sent.push({ method: init?.method ?? 'GET', url: urlOf(input), headers: { ...(init?.headers as Record<string, string>) } });
    const send = () => inner(input, init);
    return override === undefined ? send() : override(sent.length, send);
  };
  return { fetch: wrapped, sent };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers } });

const rejectionOf = async (promise: Promise<unknown>): Promise<PetStoreError> => {
  try {
    await promise;
  } catch (err) {
    expect(err).to.be.instanceOf(PetStoreError);
    return err as PetStoreError;
  }
  return expect.fail('expected a PetStoreError');
};

describe('PetStoreClient', () => {
  let server: TestServer;
  const fast = { attempts: 3, baseDelayMs: 1, maxDelayMs: 50 };
  const clientWith = (options: Partial<PetStoreClientOptions> = {}) =>
    new PetStoreClient({ baseUrl: `${server.url}/v1`, apiKey: TEST_API_KEY, fetch: checkedFetch(), retry: fast, ...options });
  beforeEach(async () => {
    server = await startTestServer({ kind: 'memory' });
  });
  afterEach(() => server.close());

  it('creates a pet, sending an Idempotency-Key (a random UUID) and a request id', async () => {
    const { fetch, sent } = recording(checkedFetch());
    const pet = await clientWith({ fetch }).createPet({ name: 'Rex', categoryId: 1 });
    expect(pet).to.deep.equal({ id: 1, name: 'Rex', categoryId: 1, status: 'available' });
    expect(sent[0]!.headers['Idempotency-Key']).to.match(/^"[0-9a-f-]{36}"$/);
    expect(sent[0]!.headers['X-Request-Id']).to.match(/^[0-9a-f-]{36}$/);
  });

  it('creates once per idempotency key the caller gives, and escapes it as a Structured Field string', async () => {
    const client = clientWith();
    const first = await client.createPet({ name: 'Tom', categoryId: 2, status: 'sold' }, { idempotencyKey: 'order "42" \\ a' });
    const again = await client.createPet({ name: 'Tom', categoryId: 2, status: 'sold' }, { idempotencyKey: 'order "42" \\ a' });
    expect(again).to.deep.equal(first);
    expect((await client.listPets()).pets).to.have.length(1);
    const err = await client.createPet({ name: 'x', categoryId: 1 }, { idempotencyKey: 'é' }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(TypeError);
  });

  it('lists page by page following Link rel="next", and iterates over every pet of every page', async () => {
    const client = clientWith();
    for (let i = 0; i < 7; i += 1) await client.createPet({ name: `pet ${i}`, categoryId: i, status: i % 2 === 0 ? 'available' : 'sold' });
    const first = await client.listPets({ limit: 3 });
    expect(first.pets.map((p) => p.id)).to.deep.equal([1, 2, 3]);
    expect(first.next).to.match(new RegExp(`^${server.url}/v1/pets\\?limit=3&cursor=`));
    const sizes: number[] = [];
    for await (const page of client.pages({ limit: 3 })) sizes.push(page.pets.length);
    expect(sizes).to.deep.equal([3, 3, 1]);
    const all: number[] = [];
    for await (const pet of client.allPets({ limit: 2, status: 'available' })) all.push(pet.id);
    expect(all).to.deep.equal([1, 3, 5, 7]);
    const last = await client.nextPage((await client.nextPage(first))!);
    expect(last!.next).to.equal(undefined);
    expect(await client.nextPage(last!)).to.equal(undefined);
  });

  it('gets a pet by id (deprecated), and raises pet_not_found with the status and the request id', async () => {
    const client = clientWith();
    const pet = await client.createPet({ name: 'Old', categoryId: 1 });
    expect(await client.getPet(pet.id)).to.deep.equal(pet);
    const err = await rejectionOf(client.getPet(999, { requestId: 'my-trace-1' }));
    expect([err.code, err.status, err.requestId, err.name]).to.deep.equal(['pet_not_found', 404, 'my-trace-1', 'PetStoreError']);
    expect(err).to.be.instanceOf(Error);
  });

  it('raises validation_failed with every detail, and unauthorized, without retrying either', async () => {
    const { fetch, sent } = recording(checkedFetch());
    const err = await rejectionOf(clientWith({ fetch }).createPet({ name: '', categoryId: 1.5 }));
    expect([err.code, err.status]).to.deep.equal(['validation_failed', 400]);
    expect(err.details.map((d) => d.field)).to.deep.equal(['/name', '/categoryId']);
    expect(err.requestId).to.equal(sent[0]!.headers['X-Request-Id']);
    const denied = await rejectionOf(clientWith({ fetch, apiKey: 'wrong-key-0123456789' }).listPets());
    expect([denied.code, denied.status]).to.deep.equal(['unauthorized', 401]);
    expect(sent).to.have.length(2);
  });

  it('retries a creation whose answer was lost: the same key creates nothing new and gets the pet', async () => {
    const { fetch, sent } = recording(checkedFetch(), async (attempt, send) => {
      const res = await send();
      if (attempt === 1) throw new TypeError('fetch failed'); // the pet was created; the answer never came
      return res;
    });
    const pet = await clientWith({ fetch }).createPet({ name: 'Once', categoryId: 1 });
    expect(sent).to.have.length(2);
    expect(sent[1]!.headers['Idempotency-Key']).to.equal(sent[0]!.headers['Idempotency-Key']);
    expect((await clientWith().listPets()).pets).to.deep.equal([pet]);
  });

  it('retries a 503 of the service after its Retry-After, and creates the pet once', async () => {
    await server.close();
    let failures = 1;
    let pets: MemoryPetRepository | undefined;
    server = await startTestServer(
      { kind: 'memory' },
      {
        configure: (c) => {
          // On the service's own idempotency records, which the client's key uses.
          const records = c.get<IdempotencyStore>(TOKENS.IdempotencyStore) as MemoryIdempotencyStore;
          const inner = (pets = new MemoryPetRepository(records));
          const failWhileRestarting = (): void => {
            if (failures-- > 0) throw new StorageUnavailableError('the database is restarting');
          };
          const flaky: PetRepository = {
            create: async (draft) => {
              failWhileRestarting();
              return inner.create(draft);
            },
            createCompleting: async (draft, hold) => {
              failWhileRestarting();
              return inner.createCompleting(draft, hold);
            },
            findById: (id) => inner.findById(id),
            list: (query) => inner.list(query),
            findVersioned: (id) => inner.findVersioned(id),
            update: (id, version, draft) => inner.update(id, version, draft),
            remove: (id, version) => inner.remove(id, version),
          };
          c.rebind<PetRepository>(TOKENS.PetRepository).toConstantValue(flaky);
        },
      },
    );
    const { fetch, sent } = recording(checkedFetch());
    const started = Date.now();
    const pet = await clientWith({ fetch, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2000 } }).createPet({
      name: 'Later',
      categoryId: 1,
    });
    expect(Date.now() - started, 'waited the Retry-After of 1 s').to.be.at.least(1000);
    expect(sent).to.have.length(2);
    expect(await pets!.list({ limit: 10 })).to.deep.equal([pet]);
  });

  it('retries 429 and 5xx answers with backoff, and gives up after the last attempt with the last error', async () => {
    const statuses = [429, 502];
    const { fetch, sent } = recording(checkedFetch(), async (attempt, send) =>
      attempt <= statuses.length
        ? attempt === 1
          ? json(429, { code: 'rate_limited', message: 'slow down', status: 429, requestId: 'r1' }, { 'Retry-After': '0' })
          : new Response('<html>bad gateway</html>', { status: 502, headers: { 'Content-Type': 'text/html' } })
        : send(),
    );
    expect((await clientWith({ fetch }).listPets()).pets).to.deep.equal([]);
    expect(sent).to.have.length(3);

    const always502 = recording(checkedFetch(), () => Promise.resolve(new Response('bad gateway', { status: 502 })));
    const err = await rejectionOf(clientWith({ fetch: always502.fetch }).listPets());
    expect([err.code, err.status]).to.deep.equal(['unexpected_response', 502]);
    expect(always502.sent).to.have.length(3);
  });

  it('does not retry when the service asks for a longer wait than the policy allows, and tells the wait', async () => {
    const { fetch, sent } = recording(checkedFetch(), () =>
      Promise.resolve(json(429, { code: 'rate_limited', message: 'slow down', status: 429, requestId: 'r2' }, { 'Retry-After': '60' })),
    );
    const err = await rejectionOf(clientWith({ fetch }).createPet({ name: 'x', categoryId: 1 }));
    expect([err.code, err.status, err.retryAfterSeconds, err.requestId]).to.deep.equal(['rate_limited', 429, 60, 'r2']);
    expect(sent).to.have.length(1);
  });

  it('gives up on an attempt after its timeout, retries it, and raises timeout', async () => {
    const hanging: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
    const { fetch, sent } = recording(hanging);
    const err = await rejectionOf(clientWith({ fetch, timeoutMs: 50, retry: { attempts: 2, baseDelayMs: 1 } }).listPets());
    expect([err.code, err.status]).to.deep.equal(['timeout', undefined]);
    expect(sent).to.have.length(2);
  });

  it("stops at once, with the caller's reason, when the caller aborts", async () => {
    const controller = new AbortController();
    const { fetch, sent } = recording(checkedFetch(), () => {
      controller.abort(new Error('user left'));
      return Promise.reject(new DOMException('aborted', 'AbortError'));
    });
    const err = await clientWith({ fetch })
      .listPets({}, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect((err as Error).message).to.equal('user left');
    expect(sent).to.have.length(1);
  });

  it('raises network_error when the service cannot be reached', async () => {
    const err = await rejectionOf(
      new PetStoreClient({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: TEST_API_KEY, retry: { attempts: 2, baseDelayMs: 1 } }).listPets(),
    );
    expect([err.code, err.status]).to.deep.equal(['network_error', undefined]);
    expect(err.requestId).to.match(/^[0-9a-f-]{36}$/);
  });

  it('raises unexpected_response for a 2xx answer that is not a pet, with the request id it sent', async () => {
    const { fetch, sent } = recording(checkedFetch(), () => Promise.resolve(json(200, { hello: 'world' }, { ETag: '"1-1"' })));
    const err = await rejectionOf(clientWith({ fetch }).getPetWithETag(1));
    expect([err.code, err.status, err.message, err.attempts]).to.deep.equal(['unexpected_response', 200, 'the answer is not a pet', 1]);
    expect(err.requestId).to.equal(sent[0]!.headers['X-Request-Id']);
  });

  it('never sends the API key to another origin named by a next link', async () => {
    const { fetch, sent } = recording(checkedFetch(), () =>
      Promise.resolve(json(200, [], { Link: '<http://elsewhere.example/v1/pets?cursor=x>; rel="next"' })),
    );
    const err = await rejectionOf(clientWith({ fetch }).listPets());
    expect(err.code).to.equal('unexpected_response');
    expect(sent).to.have.length(1);
  });

  it('follows the links of a service mounted under a prefix', async () => {
    const petStore = await createPetStore({ apiKeys: [TEST_API_KEY] });
    const parent = new Koa();
    parent.use(mount('/shop/petstore', petStore.app));
    const mounted: RunningHttpServer = await startHttpServer(parent.callback(), { host: '127.0.0.1', port: 0 });
    try {
      const client = new PetStoreClient({
        baseUrl: `${mounted.url}/shop/petstore/v1/`,
        apiKey: TEST_API_KEY,
        fetch: checkedFetch('/shop/petstore'),
      });
      for (const name of ['a', 'b', 'c']) await client.createPet({ name, categoryId: 1 });
      const names: string[] = [];
      for await (const pet of client.allPets({ limit: 1 })) names.push(pet.name);
      expect(names).to.deep.equal(['a', 'b', 'c']);
    } finally {
      await mounted.close();
      await petStore.close();
    }
  });
});
