// The limit of failed authentications per client address (PETSTORE_AUTH_FAILURE_LIMIT), in one
// process: missing, malformed and unknown keys count against the address, a valid key never
// does, and an address past the limit is answered 429 with Retry-After, its valid keys too,
// until its window ends. X-Forwarded-For is not believed.
import { expect } from 'chai';
import { expectError } from '../support/expect-error.js';
import { clientFor, request, type TestResponse } from '../support/http-client.js';
import { startTestServer, TEST_API_KEY, type TestServer } from '../support/test-server.js';

const BAD_CREDENTIALS: Array<Record<string, string>> = [
  {},
  { Authorization: 'Basic dXNlcjpwYXNz' },
  { Authorization: 'Bearer unknown-key-0123456789' },
];

describe('the limit of failed authentications per client address', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const start = async (config: NonNullable<NonNullable<Parameters<typeof startTestServer>[1]>['config']>) => {
    server = await startTestServer({ kind: 'memory' }, { config });
    return server.url;
  };
  const failFrom = (url: string, i: number, localAddress = '127.0.0.1', extra: Record<string, string> = {}): Promise<TestResponse> =>
    request(url, '/v1/pets', { headers: { ...BAD_CREDENTIALS[i % BAD_CREDENTIALS.length], ...extra }, localAddress });

  it('answers 401 with the policy fields up to the limit, then 429 with Retry-After to the address, valid key included', async () => {
    const url = await start({ authFailureLimit: { requests: 4, windowSeconds: 60 } });
    for (let i = 0; i < 4; i += 1) {
      const res = await failFrom(url, i);
      expectError(res, 401, 'unauthorized');
      expect(res.headers['ratelimit-policy']).to.equal('"auth-failures";q=4;w=60');
      expect(res.headers['ratelimit']).to.match(new RegExp(`^"auth-failures";r=${3 - i};t=(60|59)$`));
    }
    const refused = await failFrom(url, 0);
    expectError(refused, 429, 'rate_limited');
    expect(refused.json.message).to.contain('without a valid API key from this address');
    expect(Number(refused.headers['retry-after'])).to.be.within(1, 60);
    expect(refused.headers['ratelimit']).to.match(/^"auth-failures";r=0;t=\d+$/);
    // A right guess must not be told apart from a wrong one once the address is refused.
    expectError(await clientFor(url, TEST_API_KEY).get('/v1/pets'), 429, 'rate_limited');
    // Documents and probes are never limited.
    for (const path of ['/healthz', '/readyz', '/metrics', '/v1/openapi.json'])
      expect((await request(url, path)).status, path).to.equal(200);
  });

  it('never counts a request with a valid key, and gives each address a budget of its own, whatever X-Forwarded-For says', async () => {
    const url = await start({ authFailureLimit: { requests: 2, windowSeconds: 60 } });
    const api = clientFor(url, TEST_API_KEY);
    for (let i = 0; i < 10; i += 1) {
      const res = await api.get('/v1/pets');
      expect(res.status).to.equal(200);
      expect(res.headers['ratelimit'], 'a valid key sees no field of this policy').to.equal(undefined);
    }
    for (let i = 0; i < 2; i += 1)
      expectError(await failFrom(url, i, '127.0.0.1', { 'X-Forwarded-For': `198.51.100.${i}` }), 401, 'unauthorized');
    expectError(await failFrom(url, 2, '127.0.0.1', { 'X-Forwarded-For': '198.51.100.99' }), 429, 'rate_limited');
    // Another address has its own budget.
    expectError(await failFrom(url, 0, '127.0.0.2'), 401, 'unauthorized');
    expect(
      (await request(url, '/v1/pets', { headers: { Authorization: `Bearer ${TEST_API_KEY}` }, localAddress: '127.0.0.3' })).status,
    ).to.equal(200);
  });

  it('guards /metrics when it needs a key, and works beside the per-key limit', async () => {
    const url = await start({
      metrics: 'key',
      authFailureLimit: { requests: 1, windowSeconds: 60 },
      rateLimit: { requests: 2, windowSeconds: 60 },
    });
    const api = clientFor(url, TEST_API_KEY);
    const first = await api.get('/v1/pets');
    expect(first.headers['ratelimit']).to.match(/^"per-key";r=1;t=\d+$/);
    expectError(await request(url, '/metrics'), 401, 'unauthorized');
    expectError(await request(url, '/metrics'), 429, 'rate_limited');
    expectError(await request(url, '/metrics', { headers: { Authorization: `Bearer ${TEST_API_KEY}` } }), 429, 'rate_limited');
    const elsewhere = await request(url, '/v1/pets', { headers: { Authorization: `Bearer ${TEST_API_KEY}` }, localAddress: '127.0.0.2' });
    expect(elsewhere.headers['ratelimit'], "the per-key budget is the key's, wherever it calls from").to.match(/^"per-key";r=0;t=\d+$/);
  });
});
