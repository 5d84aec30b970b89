// What the edge answers for each outcome of a credential's check: a credential a verifier
// refuses gets 401 with the verifier's reason; one it cannot check now gets 503, never a 401,
// and is not counted as a failed authentication.
import { expect } from 'chai';
import type { CredentialVerifier } from '../../src/domain/index.js';
import { TOKENS } from '../../src/composition/tokens.js';
import { clientFor } from '../support/http-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const REFUSED = 'refused-credential-0123456789';
const UNCHECKABLE = 'uncheckable-credential-0123456789';
const outcomes: CredentialVerifier = {
  verify: (credential) =>
    Promise.resolve(
      credential === REFUSED
        ? { kind: 'refused', reason: 'the "key" expired\\ at 2030-01-01T00:00Z' }
        : credential === UNCHECKABLE
          ? { kind: 'unavailable', reason: 'the key source does not answer' }
          : { kind: 'unknown' },
    ),
};

describe('the outcomes of a credential check, at the HTTP edge', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(
      { kind: 'memory' },
      {
        config: { authFailureLimit: { requests: 2, windowSeconds: 60 } },
        configure: (c) => c.rebind<CredentialVerifier>(TOKENS.CredentialVerifier).toConstantValue(outcomes),
      },
    );
  });
  after(() => server.close());

  it('answers a refused credential 401 with its reason, as a quoted-string-safe error_description', async () => {
    const res = await clientFor(server.url, REFUSED).get('/v1/pets', {});
    expect(res.status).to.equal(401);
    expect(res.json).to.include({ code: 'unauthorized' });
    expect((res.json as { message: string }).message).to.contain('expired');
    expect(res.headers['www-authenticate']).to.equal(
      'Bearer realm="petstore", error="invalid_token", error_description="the key expired at 2030-01-01T00:00Z"',
    );
  });

  it('answers a credential that cannot be checked now 503 with Retry-After, however often, without counting it as a failure', async () => {
    for (let i = 0; i < 4; i += 1) {
      const res = await clientFor(server.url, UNCHECKABLE).get('/v1/pets', {});
      expect(res.status, `attempt ${i}`).to.equal(503);
      expect(res.json).to.include({ code: 'service_unavailable' });
      expect(res.headers['retry-after']).to.equal('5');
      expect(res.headers['ratelimit-policy'], 'not counted against the address').to.equal(undefined);
    }
  });
});
