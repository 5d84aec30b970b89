// Discovery and operations over real HTTP: OpenAPI document, API reference, health,
// readiness, request ids and logs, metrics, CORS, rate limits and problem details.
import type Database from 'better-sqlite3';
import { expect } from 'chai';
import { pino } from 'pino';
import type { ServiceState } from '../../src/domain/index.js';
import { TOKENS } from '../../src/composition/tokens.js';
import { clientFor, request } from '../support/http-client.js';
import { expectError } from '../support/expect-error.js';
import { OTHER_TEST_API_KEY, startTestServer, TEST_API_KEY, type TestServer } from '../support/test-server.js';
import { tempDir } from '../support/temp-dir.js';

describe('discovery and operations', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const start = async (...args: Parameters<typeof startTestServer>) => {
    server = await startTestServer(...args);
    return server;
  };

  describe('the OpenAPI document and the API reference', () => {
    it('serves the OpenAPI 3.1 document at /v1/openapi.json without a key, pointing at this server', async () => {
      const { url } = await start({ kind: 'memory' });
      const res = await request(url, '/v1/openapi.json');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('application/json; charset=utf-8');
      expect(res.json.openapi).to.match(/^3\.1\./);
      expect(res.json.servers).to.deep.equal([{ url: '/v1', description: 'this server' }]);
      // Paths outside /v1 point at this server's root, not at the document's example host.
      expect(res.json.paths['/healthz'].servers).to.deep.equal([{ url: '/', description: 'this server' }]);
      expect(JSON.stringify(res.json.paths)).not.to.contain('127.0.0.1:3000');
      expect(Object.keys(res.json.paths)).to.include.members(['/pets', '/pets/{petId}']);
    });

    it("serves the API's operations in the document, but not the reference page's own files", async () => {
      const { url } = await start({ kind: 'memory' });
      const paths = Object.keys((await request(url, '/v1/openapi.json')).json.paths);
      expect(paths).to.include.members(['/pets', '/pets/{petId}', '/docs', '/docs/errors', '/docs/api-conventions', '/healthz']);
      expect(paths).not.to.include.members(['/docs/init.js']);
      expect(paths).not.to.include.members(['/docs/assets/{file}']);
      // They are still answered, and the tests still check their answers against docs/openapi.yaml.
      expect((await request(url, '/docs/init.js')).status).to.equal(200);
    });

    it('serves the API conventions the document links to, as Markdown, without a key', async () => {
      const { url } = await start({ kind: 'memory' });
      const res = await request(url, '/docs/api-conventions');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('text/markdown; charset=utf-8');
      expect(res.text).to.contain('# API conventions').and.contain('X-Request-Id');
      expect((await request(url, '/v1/openapi.json')).json.info.description).to.contain('](/docs/api-conventions)');
    });

    it('serves the API reference page and its assets from the package, and nothing else of it', async () => {
      const { url } = await start({ kind: 'memory' });
      const page = await request(url, '/docs');
      expect(page.status).to.equal(200);
      expect(page.headers['content-type']).to.equal('text/html; charset=utf-8');
      expect(page.text).to.contain('/docs/assets/swagger-ui-bundle.js').and.contain('data-openapi-url="/v1/openapi.json"');
      expect(page.text).not.to.match(/https?:\/\//);
      const bundle = await request(url, '/docs/assets/swagger-ui-bundle.js');
      expect(bundle.status).to.equal(200);
      expect(bundle.headers['content-type']).to.equal('text/javascript; charset=utf-8');
      expect(bundle.text.length).to.be.greaterThan(100_000);
      expectError(await request(url, '/docs/assets/package.json'), 404, 'not_found');
      expectError(await request(url, '/docs/assets/..%2Fpackage.json'), 404, 'not_found');
      expect((await request(url, '/docs/errors')).text).to.contain('`pet_not_found`');
    });
  });

  describe('health and readiness', () => {
    it('answers /healthz and /readyz without a key', async () => {
      const { url } = await start({ kind: 'memory' });
      expect((await request(url, '/healthz')).json).to.deep.equal({ status: 'ok' });
      expect((await request(url, '/readyz')).json).to.deep.equal({ status: 'ready' });
    });

    it('answers /readyz with 503 while the server drains, /healthz still 200', async () => {
      const running = await start({ kind: 'memory' });
      running.container.get<ServiceState>(TOKENS.ServiceState).draining = true;
      const res = await request(running.url, '/readyz');
      expectError(res, 503, 'service_unavailable');
      expect(res.headers['retry-after']).to.equal('5');
      expect((await request(running.url, '/healthz')).status).to.equal(200);
    });

    it('answers /readyz with 503 when the database does not answer', async () => {
      const dir = tempDir();
      try {
        const running = await start({ kind: 'sqlite', path: `${dir.path}/petstore.db` });
        expect((await request(running.url, '/readyz')).status).to.equal(200);
        running.container.get<Database.Database>(TOKENS.SqliteDatabase).close();
        expectError(await request(running.url, '/readyz'), 503, 'service_unavailable');
      } finally {
        dir.remove();
      }
    });
  });

  describe('request ids and logs', () => {
    it('makes a request id, echoes it, and puts it in error bodies; keeps a sane one sent by the client', async () => {
      const { url } = await start({ kind: 'memory' });
      const made = await request(url, '/v1/pets');
      expect(made.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
      expect(made.json.requestId).to.equal(made.headers['x-request-id']);
      const kept = await request(url, '/v1/pets', { headers: { 'X-Request-Id': 'client-id.42' } });
      expect(kept.headers['x-request-id']).to.equal('client-id.42');
      expect(kept.json.requestId).to.equal('client-id.42');
      for (const insane of ['has space', 'x'.repeat(129), 'quote"', 'new\\nline']) {
        const replaced = await request(url, '/v1/pets', { headers: { 'X-Request-Id': insane } });
        expect(replaced.headers['x-request-id'], insane).to.match(/^[0-9a-f-]{36}$/);
      }
    });

    it('logs one JSON line per request with method, route, status, duration and id, and never a key', async () => {
      const lines: string[] = [];
      const { url } = await start({ kind: 'memory' }, { logger: pino({ level: 'info' }, { write: (l: string) => void lines.push(l) }) });
      const api = clientFor(url, TEST_API_KEY);
      await api.postJson('/v1/pets', { name: 'Logged', categoryId: 1 }, { 'X-Request-Id': 'trace-me' });
      await request(url, '/v1/pets', { headers: { Authorization: 'Bearer wrong-key-but-secret-0123' } });
      await api.get('/v1/pets/1');
      const entries = lines.map((l) => JSON.parse(l)).filter((e) => e.msg === 'request');
      expect(entries).to.have.length(3);
      expect(entries[0]).to.deep.include({ requestId: 'trace-me', method: 'POST', route: '/v1/pets', status: 201 });
      expect(entries[0].durationMs).to.be.a('number');
      expect(entries[0].caller).to.match(/^key-[0-9a-f]{16}$/);
      expect(entries[1]).to.deep.include({ method: 'GET', route: '/v1/pets', status: 401 });
      expect(entries[2]).to.deep.include({ route: '/v1/pets/:petId', status: 200, deprecated: 'getPet' });
      expect(entries[2].caller, 'the caller of a deprecated operation is named').to.equal(entries[0].caller);
      expect(entries[0]).not.to.have.property('deprecated');
      const all = lines.join('\n');
      for (const secret of [TEST_API_KEY, 'wrong-key-but-secret-0123', 'Bearer', 'authorization']) expect(all).not.to.contain(secret);
    });

    it("writes the route's own fields on every line of a route, and each request's id and status on its own", async () => {
      // The second and third lines of a route go through the logger kept for it (observe-requests.ts).
      const lines: string[] = [];
      const { url } = await start({ kind: 'memory' }, { logger: pino({ level: 'info' }, { write: (l: string) => void lines.push(l) }) });
      const api = clientFor(url, TEST_API_KEY);
      await api.postJson('/v1/pets', { name: 'Logged', categoryId: 1 });
      await api.get('/v1/pets/1', { 'X-Request-Id': 'first' });
      await api.get('/v1/pets/2', { 'X-Request-Id': 'second' });
      await request(url, '/v1/pets/1', { headers: { 'X-Request-Id': 'third' } });
      await api.get('/v1/pets');
      const requestLines = lines.filter((l) => JSON.parse(l).msg === 'request');
      const entries = requestLines.map((l) => JSON.parse(l));
      const ofGetPet = { method: 'GET', route: '/v1/pets/:petId', deprecated: 'getPet' };
      expect(entries).to.have.length(5);
      expect(entries[1]).to.deep.include({ ...ofGetPet, requestId: 'first', status: 200 });
      expect(entries[2]).to.deep.include({ ...ofGetPet, requestId: 'second', status: 404 });
      expect(entries[3]).to.deep.include({ ...ofGetPet, requestId: 'third', status: 401 });
      expect(entries[1].caller).to.match(/^key-[0-9a-f]{16}$/);
      expect(entries[3], 'no caller is carried over from an earlier line of the route').not.to.have.property('caller');
      expect(entries[4]).to.deep.include({ method: 'GET', route: '/v1/pets', status: 200 });
      expect(entries[4]).not.to.have.property('deprecated');
      for (const line of requestLines) expect(line.match(/"route":/g), 'one route field per line').to.have.length(1);
    });
  });

  describe('metrics', () => {
    it('serves Prometheus metrics by route and status, latency and process metrics, without a key by default', async () => {
      const { url } = await start({ kind: 'memory' });
      await clientFor(url, TEST_API_KEY).get('/v1/pets');
      await request(url, '/v1/nowhere/at/all');
      const res = await request(url, '/metrics');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^text\/plain; version=0\.0\.4/);
      expect(res.text).to.contain('petstore_http_requests_total{method="GET",route="/v1/pets",status="200"} 1');
      expect(res.text).to.contain('petstore_http_requests_total{method="GET",route="(unmatched)",status="404"} 1');
      expect(res.text).to.match(/petstore_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/v1\/pets"\}/);
      expect(res.text).to.contain('petstore_process_resident_memory_bytes');
    });

    it('asks for an API key when PETSTORE_METRICS=key, and is gone when off', async () => {
      const guarded = await start({ kind: 'memory' }, { config: { metrics: 'key' } });
      expectError(await request(guarded.url, '/metrics'), 401, 'unauthorized');
      expect((await clientFor(guarded.url, TEST_API_KEY).get('/metrics')).status).to.equal(200);
      await guarded.close();
      const off = await start({ kind: 'memory' }, { config: { metrics: 'off' } });
      expectError(await request(off.url, '/metrics'), 404, 'not_found');
    });
  });

  describe('CORS', () => {
    it('is off by default: no CORS headers for any origin', async () => {
      const { url } = await start({ kind: 'memory' });
      const res = await clientFor(url, TEST_API_KEY).get('/v1/pets', { Origin: 'https://app.example' });
      expect(res.headers['access-control-allow-origin']).to.equal(undefined);
    });

    it('allows configured origins, exposes the API headers, and answers preflights without a key', async () => {
      const { url } = await start({ kind: 'memory' }, { config: { corsOrigins: ['https://app.example'] } });
      const res = await clientFor(url, TEST_API_KEY).get('/v1/pets', { Origin: 'https://app.example' });
      expect(res.headers['access-control-allow-origin']).to.equal('https://app.example');
      const exposed = String(res.headers['access-control-expose-headers']).split(',');
      expect(exposed).to.include.members([
        'Link',
        'Location',
        'ETag',
        'Deprecation',
        'Sunset',
        'RateLimit',
        'RateLimit-Policy',
        'Retry-After',
      ]);
      const preflight = await request(url, '/v1/pets', {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://app.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization,content-type,idempotency-key',
        },
      });
      expect(preflight.status).to.equal(204);
      expect(preflight.headers['access-control-allow-methods']).to.contain('POST');
      expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).to.contain('idempotency-key');
      // The changes of interface 1.1, conditional ones included.
      const change = await request(url, '/v1/pets/1', {
        method: 'OPTIONS',
        headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'PATCH', 'Access-Control-Request-Headers': 'if-match' },
      });
      expect(String(change.headers['access-control-allow-methods']).split(',')).to.include.members(['PATCH', 'DELETE']);
      expect(String(change.headers['access-control-allow-headers']).toLowerCase().split(',')).to.include.members([
        'if-match',
        'if-none-match',
      ]);
      const stranger = await clientFor(url, TEST_API_KEY).get('/v1/pets', { Origin: 'https://evil.example' });
      expect(stranger.headers['access-control-allow-origin']).to.equal(undefined);
    });
  });

  describe('rate limiting', () => {
    it('is off by default: no RateLimit fields', async () => {
      const { url } = await start({ kind: 'memory' });
      expect((await clientFor(url, TEST_API_KEY).get('/v1/pets')).headers['ratelimit']).to.equal(undefined);
    });

    it('limits each API key on its own, with RateLimit fields, 429 and Retry-After past the limit', async () => {
      const { url } = await start({ kind: 'memory' }, { config: { rateLimit: { requests: 3, windowSeconds: 60 } } });
      const api = clientFor(url, TEST_API_KEY);
      const answers = [];
      for (let i = 0; i < 4; i += 1) answers.push(await api.get('/v1/pets'));
      expect(answers.slice(0, 3).map((r) => r.status)).to.deep.equal([200, 200, 200]);
      expect(answers[0]!.headers['ratelimit-policy']).to.equal('"per-key";q=3;w=60');
      expect(answers[0]!.headers['ratelimit']).to.match(/^"per-key";r=2;t=\d+$/);
      expect(answers[2]!.headers['ratelimit']).to.match(/^"per-key";r=0;t=\d+$/);
      const limited = answers[3]!;
      expectError(limited, 429, 'rate_limited');
      expect(Number(limited.headers['retry-after'])).to.be.within(1, 60);
      expect(limited.headers['ratelimit']).to.match(/^"per-key";r=0;t=\d+$/);
      expect((await clientFor(url, OTHER_TEST_API_KEY).get('/v1/pets')).status, 'another key has its own budget').to.equal(200);
      for (let i = 0; i < 5; i += 1) {
        for (const path of ['/healthz', '/readyz', '/metrics', '/v1/openapi.json']) {
          expect((await request(url, path)).status, `${path} is never limited`).to.equal(200);
        }
      }
    });
  });

  describe('problem details', () => {
    it('answers RFC 9457 problem details to a client that asks for them, the seed body to everyone else', async () => {
      const { url } = await start({ kind: 'memory' });
      const problem = await request(url, '/v1/pets?limit=0', {
        headers: { Authorization: `Bearer ${TEST_API_KEY}`, Accept: 'application/problem+json' },
      });
      expect(problem.status).to.equal(400);
      expect(problem.headers['content-type']).to.equal('application/problem+json; charset=utf-8');
      expect(problem.json).to.deep.include({
        type: '/docs/errors#invalid_parameter',
        title: 'Bad Request',
        status: 400,
        code: 'invalid_parameter',
      });
      expect(problem.json.detail).to.equal(problem.json.message);
      for (const accept of ['application/json', '*/*', 'application/json, application/problem+json;q=0.5']) {
        const plain = await request(url, '/v1/pets', { headers: { Accept: accept } });
        expect(plain.headers['content-type'], accept).to.equal('application/json; charset=utf-8');
        expect(plain.json.type).to.equal(undefined);
      }
    });
  });
});
