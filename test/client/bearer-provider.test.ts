// The typed client's credential over real HTTP: a bearer provider asked before each attempt (so
// a token can be refreshed), the static apiKey as before, and 403 insufficient_scope as an
// error of its own, every answer checked against docs/openapi.yaml.
import { expect } from 'chai';
import { InsufficientScopeError, PetStoreClient, type PetStoreClientOptions, PetStoreError } from '../../src/client/index.js';
import { TOKENS } from '../../src/composition/tokens.js';
import type { ApiKeyAdmin, ApiKeyLabel } from '../../src/domain/index.js';
import { checkedFetch } from '../support/checked-fetch.js';
import { startTestServer, TEST_API_KEY, type TestServer } from '../support/test-server.js';

const rejectionOf = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => expect.fail('expected a rejection'),
    (err: unknown) => err,
  );

describe('the typed client: bearer provider and insufficient scope', () => {
  let server: TestServer;
  let admin: ApiKeyAdmin;
  let reader: string;
  before(async () => {
    server = await startTestServer({ kind: 'memory' });
    admin = await server.container.getAsync<ApiKeyAdmin>(TOKENS.ApiKeyAdmin);
    reader = (await admin.create('reader' as ApiKeyLabel, { scopes: ['pets:read'] })).key;
  });
  after(() => server.close());
  const clientWith = (credential: Pick<PetStoreClientOptions, 'apiKey' | 'bearer'>, fetch: typeof globalThis.fetch = checkedFetch) =>
    new PetStoreClient({ baseUrl: `${server.url}/v1`, ...credential, fetch, retry: { attempts: 2, baseDelayMs: 1 } });

  it('asks the provider for the credential of every call, sync or async, and sends what it answers', async () => {
    const answers = [reader, TEST_API_KEY];
    let asked = 0;
    const client = clientWith({ bearer: () => Promise.resolve(answers[asked++ % 2]!) });
    await client.listPets();
    const created = await client.createPet({ name: 'Refreshed', categoryId: 1 });
    expect(created.name).to.equal('Refreshed');
    expect(asked).to.equal(2);
    expect((await clientWith({ bearer: () => TEST_API_KEY }).listPets()).pets.map((pet) => pet.id)).to.include(created.id);
  });

  it('asks again before a retry, so that the retry carries a fresh token', async () => {
    const sent: string[] = [];
    let attempts = 0;
    // The first attempt fails as a lost connection would; the retry reaches the service.
    const losingFirst: typeof fetch = async (input, init) => {
      sent.push(new Headers(init?.headers).get('Authorization') ?? '');
      attempts += 1;
      if (attempts === 1) throw new TypeError('fetch failed');
      return checkedFetch(input, init);
    };
    const tokens = ['stale-token-0123456789', TEST_API_KEY];
    const client = clientWith({ bearer: () => tokens.shift()! }, losingFirst);
    await client.listPets();
    expect(sent).to.deep.equal(['Bearer stale-token-0123456789', `Bearer ${TEST_API_KEY}`]);
  });

  it('keeps the static apiKey working, and refuses both, neither, or a provider answer that is no bearer token', async () => {
    expect((await clientWith({ apiKey: TEST_API_KEY }).listPets()).pets).to.be.an('array');
    expect(() => clientWith({})).to.throw(TypeError);
    expect(() => clientWith({ apiKey: TEST_API_KEY, bearer: () => TEST_API_KEY })).to.throw(TypeError);
    expect(await rejectionOf(clientWith({ bearer: () => 'two words' }).listPets())).to.be.instanceOf(TypeError);
    const broken = new Error('the identity provider does not answer');
    expect(await rejectionOf(clientWith({ bearer: () => Promise.reject(broken) }).listPets()), 'its own error, not retried').to.equal(
      broken,
    );
  });

  it('fails a call without the scope with an InsufficientScopeError naming the scope, not retried', async () => {
    const err = await rejectionOf(clientWith({ bearer: () => reader }).createPet({ name: 'Nope', categoryId: 1 }));
    expect(err).to.be.instanceOf(InsufficientScopeError).and.instanceOf(PetStoreError);
    const refused = err as InsufficientScopeError;
    expect([refused.name, refused.code, refused.status, refused.scope, refused.attempts]).to.deep.equal([
      'InsufficientScopeError',
      'insufficient_scope',
      403,
      'pets:write',
      1,
    ]);
    expect(refused.message).to.contain('pets:write');
    const unknown = await rejectionOf(clientWith({ apiKey: 'unknown-key-0123456789' }).listPets());
    expect(unknown).to.be.instanceOf(PetStoreError).and.not.instanceOf(InsufficientScopeError);
  });
});
