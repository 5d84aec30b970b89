// Faults and broken requests: each still ends as the JSON Error body, and the server keeps serving.
import { expect } from 'chai';
import { pino } from 'pino';
import { type PetRepository, StorageUnavailableError } from '../../src/domain/index.js';
import { TOKENS } from '../../src/composition/tokens.js';
import { clientFor } from '../support/http-client.js';
import { expectError } from '../support/expect-error.js';
import { assertDocumented } from '../support/openapi-contract.js';
import { parseRawAnswer, rawExchange, rawRequest } from '../support/raw-http.js';
import { startTestServer, TEST_API_KEY, type TestServer } from '../support/test-server.js';

const STACK_TRACE = /at .+\(.+:\d+:\d+\)|\.ts:\d+|node_modules/;

describe('faults and broken requests', () => {
  describe('a repository that fails (a port rebound in the container)', () => {
    let server: TestServer;
    let logLines: string[];
    const failure = new Error('SQLITE_IOERR: disk I/O error at /secret/path/pets.db');
    beforeEach(async () => {
      const failing: PetRepository = {
        create: () => Promise.reject(failure),
        createCompleting: () => Promise.reject(failure),
        findById: () => Promise.reject(failure),
        list: () => Promise.reject(failure),
        findVersioned: () => Promise.reject(failure),
        update: () => Promise.reject(failure),
        remove: () => Promise.reject(failure),
      };
      logLines = [];
      const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
      server = await startTestServer(
        { kind: 'memory' },
        { logger, configure: (c) => c.rebind<PetRepository>(TOKENS.PetRepository).toConstantValue(failing) },
      );
    });
    afterEach(() => server.close());

    it('answers 500 internal_error with no stack, message or path of the fault', async () => {
      const api = clientFor(server.url, TEST_API_KEY);
      for (const res of [
        await api.get('/v1/pets'),
        await api.get('/v1/pets/1'),
        await api.postJson('/v1/pets', { name: 'a', categoryId: 1 }),
      ]) {
        expectError(res, 500, 'internal_error');
        expect(res.text).not.to.match(STACK_TRACE);
        expect(res.text).not.to.contain('SQLITE_IOERR');
        expect(res.text).not.to.contain('/secret/path');
      }
    });

    it('logs each fault by type and message, with no stack trace and no API key', async () => {
      await clientFor(server.url, TEST_API_KEY).get('/v1/pets');
      const faults = logLines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'unexpected fault in GET /v1/pets');
      expect(faults).to.have.length(1);
      expect(faults[0].fault).to.deep.equal({ type: 'Error', message: failure.message });
      expect(logLines.join('')).not.to.match(STACK_TRACE);
      expect(logLines.join('')).not.to.contain(TEST_API_KEY);
      expect(logLines.join('')).not.to.contain('"stack"');
    });
  });

  describe('a repository whose storage is unavailable', () => {
    let server: TestServer;
    let logLines: string[];
    beforeEach(async () => {
      const away = () => Promise.reject(new StorageUnavailableError('PostgreSQL is unavailable: connect ECONNREFUSED 10.0.0.9:5432'));
      const unavailable: PetRepository = {
        create: away,
        createCompleting: away,
        findById: away,
        list: away,
        findVersioned: away,
        update: away,
        remove: away,
      };
      logLines = [];
      const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
      server = await startTestServer(
        { kind: 'memory' },
        { logger, configure: (c) => c.rebind<PetRepository>(TOKENS.PetRepository).toConstantValue(unavailable) },
      );
    });
    afterEach(() => server.close());

    it('answers 503 service_unavailable with Retry-After, and no detail of the fault', async () => {
      const api = clientFor(server.url, TEST_API_KEY);
      for (const res of [
        await api.get('/v1/pets'),
        await api.get('/v1/pets/1'),
        await api.postJson('/v1/pets', { name: 'a', categoryId: 1 }),
      ]) {
        expectError(res, 503, 'service_unavailable');
        expect(res.headers['retry-after']).to.equal('1');
        expect(res.text).not.to.contain('ECONNREFUSED');
        expect(res.text).not.to.contain('10.0.0.9');
      }
    });

    it('logs it as a warning, not as an unexpected fault', async () => {
      await clientFor(server.url, TEST_API_KEY).get('/v1/pets');
      const entries = logLines.map((line) => JSON.parse(line));
      expect(entries.filter((e) => e.msg === 'storage unavailable in GET /v1/pets').map((e) => [e.level, e.fault.type])).to.deep.equal([
        [40, 'StorageUnavailableError'],
      ]);
      expect(entries.filter((e) => e.level >= 50)).to.deep.equal([]);
    });
  });

  describe('requests too broken for Koa', () => {
    let server: TestServer;
    beforeEach(async () => {
      server = await startTestServer({ kind: 'memory' });
    });
    afterEach(() => server.close());

    it('answers a request that is not valid HTTP, or whose framing is ambiguous (smuggling), with a 400 JSON Error body', async () => {
      const smuggling = [
        'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
        'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nContent-Length: 5\r\n\r\n{}{}',
        'POST /v1/pets HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n',
        'GET /v1/pets HTTP/1.1\r\nHost: x\r\n Authorization: Bearer folded-line-0123456789\r\n\r\n',
      ];
      for (const bytes of [
        'NONSENSE\r\n\r\n',
        'GET /v1/pets HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
        'FOO /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n',
        ...smuggling,
      ]) {
        const answer = parseRawAnswer(await rawExchange(server.url, bytes));
        expect(answer.status, bytes).to.equal(400);
        expect(answer.headers).to.match(/content-type: application\/json; charset=utf-8/i);
        expect(answer.json).to.deep.include({ code: 'bad_request', status: 400 });
      }
    });

    it('answers an Expect other than 100-continue with a 417 JSON Error body, and honours 100-continue', async () => {
      const auth = `Authorization: Bearer ${TEST_API_KEY}\r\n`;
      for (const [expectation, path] of [
        ['foo', '/v1/pets'],
        ['200-ok', '/v1/pets/1'],
        ['x'.repeat(100), '/v1/pets'],
      ] as const) {
        const answer = await rawRequest(server.url, `GET ${path} HTTP/1.1\r\nHost: x\r\n${auth}Expect: ${expectation}\r\n\r\n`);
        expect(answer.status).to.equal(417);
        expect(answer.headers['connection']).to.equal('close');
        expect(answer.json).to.deep.include({ code: 'expectation_failed', status: 417 });
        await assertDocumented('GET', `${server.url}${path}`, answer);
      }
      const body = '{"name":"Patient","categoryId":1}';
      const continued = await rawExchange(
        server.url,
        `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${auth}Expect: 100-continue\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
      expect(continued).to.match(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 Created\r\n/);
    });

    it('answers an HTTP/1.1 request without Host with a 400 JSON Error body; HTTP/1.0 needs none', async () => {
      for (const path of ['/healthz', '/v1/pets']) {
        const answer = await rawRequest(server.url, `GET ${path} HTTP/1.1\r\nAuthorization: Bearer ${TEST_API_KEY}\r\n\r\n`);
        expect(answer.status, path).to.equal(400);
        expect(answer.headers['connection']).to.equal('close');
        expect(answer.json).to.deep.include({ code: 'bad_request', status: 400 });
        expect(answer.json.message).to.contain('Host');
      }
      expect((await rawRequest(server.url, 'GET /healthz HTTP/1.0\r\n\r\n')).status).to.equal(200);
    });

    it('answers CONNECT with a 400 JSON Error body: the service is not a proxy', async () => {
      const answer = parseRawAnswer(await rawExchange(server.url, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'));
      expect(answer.status).to.equal(400);
      expect(answer.json).to.deep.include({ code: 'bad_request', status: 400 });
      expect(answer.json.message).to.contain('not a proxy');
    });

    it('answers headers over the 16 KiB limit with a 431 JSON Error body, and keeps serving', async () => {
      const bytes = `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`;
      const answer = parseRawAnswer(await rawExchange(server.url, bytes));
      expect(answer.status).to.equal(431);
      expect(answer.json).to.deep.include({ code: 'headers_too_large', status: 431 });
      expect((await clientFor(server.url, TEST_API_KEY).get('/v1/pets')).status).to.equal(200);
    });

    it('answers a body that never completes with 408 once the request time is up, serving other clients meanwhile', async () => {
      const slow = await startTestServer({ kind: 'memory' }, { limits: { requestTimeoutMs: 500, headersTimeoutMs: 500 } });
      try {
        const pending = rawExchange(
          slow.url,
          `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_API_KEY}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name"`,
        );
        expect((await clientFor(slow.url, TEST_API_KEY).get('/v1/pets')).status).to.equal(200);
        const answer = await pending;
        expect(parseRawAnswer(answer).json, answer).to.deep.include({ code: 'request_timeout', status: 408 });
      } finally {
        await slow.close();
      }
    });
  });
});
