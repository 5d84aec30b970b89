// JWT access tokens over real HTTP: the service configured as an operator would (the issuer and
// audience), a real issuer the test starts, real signed tokens. Each refusal gets its 401, a
// missing scope its 403, an unreachable issuer 503 and an unready /readyz; API keys keep
// working; and no log line ever holds a token.
import { expect } from 'chai';
import { pino } from 'pino';
import { systemClock } from '../../src/adapters/clock/system-clock.js';
import { JwtCredentialVerifier } from '../../src/adapters/jwt/jwt-credential-verifier.js';
import { JWT_TIMINGS } from '../../src/adapters/jwt/jwt-settings.js';
import { TOKENS } from '../../src/composition/tokens.js';
import { expectError } from '../support/expect-error.js';
import { clientFor, request } from '../support/http-client.js';
import { REFUSED_TOKENS } from '../support/refused-tokens.js';
import { startTestIssuer, TEST_AUDIENCE, type TestIssuer } from '../support/test-issuer.js';
import { startTestServer, TEST_API_KEY, type TestServer } from '../support/test-server.js';

const challengeOf = (reason: string) => `Bearer realm="petstore", error="invalid_token", error_description="${reason}"`;

describe('JWT access tokens over HTTP', () => {
  let issuer: TestIssuer;
  let server: TestServer;
  let logLines: string[];
  const tokensSent: string[] = [];
  before(async () => {
    issuer = await startTestIssuer();
    logLines = [];
    server = await startTestServer(
      { kind: 'memory' },
      {
        config: { jwt: { issuer: issuer.issuer, audience: TEST_AUDIENCE }, logLevel: 'trace' },
        logger: pino({ level: 'trace' }, { write: (line: string) => void logLines.push(line) }),
      },
    );
  });
  after(async () => {
    await server.close();
    await issuer.close();
  });
  afterEach(() => {
    issuer.behaviour = 'up';
  });
  const as = (token: string) => {
    tokensSent.push(token);
    return clientFor(server.url, token);
  };

  it('serves a valid token, and API keys beside it', async () => {
    const token = await issuer.sign();
    expect((await as(token).get('/v1/pets')).status).to.equal(200);
    expect((await as(token).postJson('/v1/pets', { name: 'Token', categoryId: 1 })).status).to.equal(201);
    expect((await clientFor(server.url, TEST_API_KEY).get('/v1/pets')).status).to.equal(200);
  });

  describe('answers 401 invalid_token, saying why, to', () => {
    for (const [what, tokenOf, reason] of REFUSED_TOKENS) {
      it(what, async () => {
        const res = await as(await tokenOf(issuer)).get('/v1/pets');
        expectError(res, 401, 'unauthorized');
        expect(res.headers['www-authenticate']).to.equal(challengeOf(reason));
      });
    }
  });

  it('honours the scopes of scope and scp: 403 insufficient_scope without the one needed', async () => {
    const reader = await issuer.sign({ scope: 'openid pets:read' });
    expect((await as(reader).get('/v1/pets')).status).to.equal(200);
    const refused = await as(reader).postJson('/v1/pets', { name: 'Nope', categoryId: 1 });
    expectError(refused, 403, 'insufficient_scope');
    expect(refused.headers['www-authenticate']).to.contain('scope="pets:write"');
    const writer = await issuer.sign({ scope: undefined, scp: ['pets:write'] });
    expect((await as(writer).postJson('/v1/pets', { name: 'Scp', categoryId: 1 })).status).to.equal(201);
    expectError(await as(writer).get('/v1/pets'), 403, 'insufficient_scope');
  });

  it('logs the caller of a token by its jwt- id, and never a token', () => {
    expect(tokensSent.length).to.be.above(5);
    const logged = logLines.join('\n');
    expect(logged).to.match(/"caller":"jwt-[0-9a-f]{16}"/);
    for (const token of tokensSent) {
      for (const segment of token.split('.').filter((part) => part.length > 0)) expect(logged).not.to.contain(segment);
    }
  });
});

describe('/readyz with JWT access tokens', () => {
  it("is not ready until the issuer's keys were fetched once, then stays ready while they are kept", async () => {
    const issuer = await startTestIssuer();
    issuer.behaviour = 'erroring';
    // With the JWKS URL configured, as with discovery but for its 5 s pause after a failure.
    const jwt = { issuer: issuer.issuer, audience: TEST_AUDIENCE, jwksUrl: issuer.jwksUrl };
    const server = await startTestServer({ kind: 'memory' }, { config: { jwt } });
    try {
      const down = await request(server.url, '/readyz');
      expectError(down, 503, 'service_unavailable');
      expect(down.headers['retry-after']).to.equal('5');
      issuer.behaviour = 'up';
      expect((await request(server.url, '/readyz')).status).to.equal(200);
      issuer.behaviour = 'erroring';
      expect((await request(server.url, '/readyz')).status).to.equal(200);
    } finally {
      await server.close();
      await issuer.close();
    }
  });
});

describe('JWT access tokens over HTTP, while the keys change or cannot be fetched', () => {
  let issuer: TestIssuer;
  let server: TestServer;
  beforeEach(async () => {
    issuer = await startTestIssuer();
    // The service's verifier, but for its 5 s pauses between fetches (an unknown kid, a failed discovery), so that a test may fetch again at once.
    const settings = { issuer: issuer.issuer, audience: TEST_AUDIENCE };
    server = await startTestServer(
      { kind: 'memory' },
      {
        config: { jwt: settings },
        configure: (c) =>
          c
            .rebind<JwtCredentialVerifier>(TOKENS.JwtVerifier)
            .toConstantValue(
              new JwtCredentialVerifier(settings, systemClock, { ...JWT_TIMINGS, keyRefetchCooldownMs: 0, discoveryRetryMs: 0 }),
            ),
      },
    );
  });
  afterEach(async () => {
    await server.close();
    await issuer.close();
  });

  it('answers 503 with Retry-After, never 401, while the keys cannot be fetched; API keys still work', async () => {
    const kid = await issuer.addKey('EdDSA');
    issuer.behaviour = 'erroring';
    const res = await clientFor(server.url, await issuer.sign({}, { kid })).get('/v1/pets');
    expectError(res, 503, 'service_unavailable');
    expect(res.headers['retry-after']).to.equal('5');
    expect((await clientFor(server.url, TEST_API_KEY).get('/v1/pets')).status).to.equal(200);
    issuer.behaviour = 'up';
    expect((await clientFor(server.url, await issuer.sign({ jti: 'back' }, { kid })).get('/v1/pets')).status).to.equal(200);
  });

  it('takes a key the issuer rotates in', async () => {
    const kid = await issuer.addKey('ES256');
    issuer.publish(kid);
    expect((await clientFor(server.url, await issuer.sign({}, { kid })).get('/v1/pets')).status).to.equal(200);
  });
});
