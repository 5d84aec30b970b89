// Two Authorization headers are ambiguous credentials: Node keeps only the first line, so a
// good key then a bad one got in and the other order did not. Both orders now get the same 401,
// no key is checked, and the refusal counts as a failed authentication.
import { expect } from 'chai';
import { expectError } from '../support/expect-error.js';
import { clientFor } from '../support/http-client.js';
import { encodeRequest } from '../support/hostile-input.js';
import { assertDocumented } from '../support/openapi-contract.js';
import { type RawResponse, rawRequest } from '../support/raw-http.js';
import { OTHER_TEST_API_KEY, startTestServer, TEST_API_KEY, type TestServer } from '../support/test-server.js';

const GOOD = `Bearer ${TEST_API_KEY}`;
const BAD = 'Bearer unknown-key-0123456789';
const CHALLENGE = 'Bearer realm="petstore", error="invalid_token", error_description="more than one credential"';

describe('an Authorization header sent more than once', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const start = async (config: NonNullable<Parameters<typeof startTestServer>[1]>['config'] = {}) => {
    server = await startTestServer({ kind: 'memory' }, { config });
    return server.url;
  };

  /** `method` /v1/pets with these Authorization lines, over a raw socket, checked against the document. */
  const sendWith = async (url: string, method: 'GET' | 'POST', ...authorizations: string[]): Promise<RawResponse> => {
    const headers = authorizations.map((value) => ['Authorization', value] as const);
    const body = method === 'POST' ? Buffer.from('{"name":"Ambiguous","categoryId":1}') : undefined;
    const res = await rawRequest(
      url,
      encodeRequest({
        method,
        target: '/v1/pets',
        headers: body === undefined ? headers : [...headers, ['Content-Type', 'application/json']],
        ...(body === undefined ? {} : { body }),
      }),
    );
    await assertDocumented(method, `${url}/v1/pets`, res);
    return res;
  };

  it('is answered the same 401 whatever the order and the keys, with a challenge that says why', async () => {
    const url = await start();
    const answers: RawResponse[] = [];
    for (const lines of [
      [GOOD, BAD],
      [BAD, GOOD],
      [GOOD, GOOD],
      [GOOD, `Bearer ${OTHER_TEST_API_KEY}`],
      [GOOD, ''],
      ['', GOOD],
      [GOOD, GOOD, GOOD],
    ]) {
      const res = await sendWith(url, 'GET', ...lines);
      expectError(res, 401, 'unauthorized');
      expect(res.headers['www-authenticate'], lines.join(' / ')).to.equal(CHALLENGE);
      answers.push(res);
    }
    const messages = new Set(answers.map((res) => res.json.message));
    expect([...messages]).to.deep.equal(['Send one Authorization header: the request has more than one']);
  });

  it('creates nothing, and a request with one of the keys alone is served', async () => {
    const url = await start();
    expectError(await sendWith(url, 'POST', GOOD, BAD), 401, 'unauthorized');
    expectError(await sendWith(url, 'POST', BAD, GOOD), 401, 'unauthorized');
    expect((await sendWith(url, 'GET', GOOD)).status).to.equal(200);
    expect((await clientFor(url, TEST_API_KEY).get('/v1/pets')).json).to.deep.equal([]);
  });

  it('counts against the address as a failed authentication, up to 429 for its valid key too', async () => {
    const url = await start({ authFailureLimit: { requests: 2, windowSeconds: 60 } });
    for (const remaining of [1, 0]) {
      const res = await sendWith(url, 'GET', GOOD, GOOD);
      expectError(res, 401, 'unauthorized');
      expect(res.headers['ratelimit']).to.match(new RegExp(`^"auth-failures";r=${remaining};t=\\d+$`));
    }
    expectError(await clientFor(url, TEST_API_KEY).get('/v1/pets'), 429, 'rate_limited');
  });
});
