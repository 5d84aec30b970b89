// Hostile input, generated: fast-check throws random bodies, bytes, content types, query
// strings, paths, methods and header values at the real service (on a SQLite file), over raw
// sockets so that nothing is cleaned up on the way. Whatever comes in, the answer is a success
// that matches what was sent, or a 4xx Error body whose status is the HTTP status: never a
// 5xx (but the 501 of a transfer coding the service does not read), never a hang. The server keeps serving, and no prototype is polluted.
// A failure prints fast-check's seed and path: replay it with fc.assert(..., { seed, path }).
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { expect } from 'chai';
import fc from 'fast-check';
import { assertDocumented } from '../support/openapi-contract.js';
import {
  bodyText,
  encodeRequest,
  expectedPet,
  expectNoPollution,
  expectSoundAnswer,
  headerValue,
  invalidUtf8,
  type Outgoing,
  prototypeSnapshot,
  urlPart,
} from '../support/hostile-input.js';
import { type RawResponse, rawRequest } from '../support/raw-http.js';
import { tempDir } from '../support/temp-dir.js';
import { startTestServer, TEST_API_KEY, type TestServer } from '../support/test-server.js';

/** More runs for a deeper search, e.g. PETSTORE_TEST_PROPERTY_SCALE=20 (the timeout grows with them). */
const SCALE = Math.max(1, Number(process.env['PETSTORE_TEST_PROPERTY_SCALE'] ?? 1) || 1);
/**
 * Exactly `numRuns` × SCALE runs, however long they take: no time limit, which would pass
 * silently after fewer runs on a loaded machine. Each property takes well under a second here.
 */
const settings = (numRuns: number) => ({ numRuns: numRuns * SCALE });

const AUTH: readonly [string, string] = ['Authorization', `Bearer ${TEST_API_KEY}`];
const JSON_TYPE: readonly [string, string] = ['Content-Type', 'application/json'];

describe('hostile input (property-based, fast-check)', function () {
  this.timeout(60_000 * SCALE);
  let server: TestServer;
  let dir: ReturnType<typeof tempDir>;
  let prototypes: Record<string, string[]>;
  before(async () => {
    prototypes = prototypeSnapshot();
    dir = tempDir();
    server = await startTestServer({ kind: 'sqlite', path: join(dir.path, 'petstore.db') });
  });
  after(async () => {
    await server.close();
    dir.remove();
  });

  const send = (request: Outgoing): Promise<RawResponse> => rawRequest(server.url, encodeRequest(request));
  const describeRequest = (request: Outgoing) => JSON.stringify({ ...request, body: request.body?.toString('latin1').slice(0, 200) });

  /** A created pet must be what was asked for, and be stored so. */
  async function expectCreated(res: RawResponse, expected: { name: string; categoryId: number; status: string }, what: string) {
    expect(res.json, what).to.deep.equal({ id: res.json.id, ...expected });
    expect(res.headers['location'], what).to.equal(`/v1/pets/${res.json.id}`);
    const stored = await send({ method: 'GET', target: `/v1/pets/${res.json.id}`, headers: [AUTH] });
    expect(stored.json, what).to.deep.equal(res.json);
  }

  /** After each property: the same server still answers, and nothing leaked into a prototype. */
  async function expectStillServingAndClean() {
    for (const target of ['/healthz', '/v1/pets?limit=1']) {
      expect((await send({ method: 'GET', target, headers: [AUTH] })).status, target).to.equal(200);
    }
    expectNoPollution(prototypes);
  }

  const createSentinel = async (name: string): Promise<number> => {
    const res = await send({
      method: 'POST',
      target: '/v1/pets',
      headers: [AUTH, JSON_TYPE],
      body: Buffer.from(JSON.stringify({ name, categoryId: 0 })),
    });
    expect(res.status, res.text).to.equal(201);
    return res.json.id as number;
  };

  it('answers any JSON body with 201 and exactly the pet it describes, or a 4xx Error; never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(bodyText, async (text) => {
        const request: Outgoing = { method: 'POST', target: '/v1/pets', headers: [AUTH, JSON_TYPE], body: Buffer.from(text, 'utf8') };
        const res = await send(request);
        const what = describeRequest(request);
        expectSoundAnswer(res, 'POST', what);
        await assertDocumented('POST', `${server.url}/v1/pets`, res);
        const expected = expectedPet(text);
        if (expected === undefined || Buffer.byteLength(text) > 16 * 1024) {
          expect(res.status, `${what} must be refused`).to.be.within(400, 499);
        } else {
          expect(res.status, `${what} is a valid NewPet: ${res.text}`).to.equal(201);
          await expectCreated(res, expected, what);
        }
      }),
      settings(150),
    );
    await expectStillServingAndClean();
  });

  it('refuses any body that is not UTF-8, compressed or not, with 400 invalid_utf8, and stores nothing', async () => {
    const before = await createSentinel('before the invalid UTF-8');
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
        fc.nat(),
        invalidUtf8,
        fc.constantFrom('identity', 'gzip', 'deflate', 'br'),
        async (name, at, bad, encoding) => {
          const nameBytes = Buffer.from(name, 'utf8');
          // Inserted on a character boundary, so that the bytes are invalid only because of `bad`.
          const boundaries = [0, ...[...name].map((_, i) => Buffer.byteLength([...name].slice(0, i + 1).join('')))];
          const cut = boundaries[at % boundaries.length]!;
          const plain = Buffer.concat([
            Buffer.from('{"name":"'),
            nameBytes.subarray(0, cut),
            Buffer.from(bad),
            nameBytes.subarray(cut),
            Buffer.from('","categoryId":1}'),
          ]);
          const compress = { identity: (b: Buffer) => b, gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync }[encoding];
          const headers: Outgoing['headers'] =
            encoding === 'identity' ? [AUTH, JSON_TYPE] : [AUTH, JSON_TYPE, ['Content-Encoding', encoding]];
          const request: Outgoing = { method: 'POST', target: '/v1/pets', headers, body: compress(plain) };
          const res = await send(request);
          expectSoundAnswer(res, 'POST', describeRequest(request));
          expect(res.json.code, `${describeRequest(request)}: ${res.text}`).to.equal('invalid_utf8');
        },
      ),
      settings(100),
    );
    expect(await createSentinel('after the invalid UTF-8'), 'no pet was created in between').to.equal(before + 1);
    await expectStillServingAndClean();
  });

  it('answers any Content-Type, Content-Encoding and body bytes with 201 (a JSON NewPet only) or a 4xx Error', async () => {
    const contentType = fc.oneof(
      fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'APPLICATION/JSON',
        'application/json;charset=latin1',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/vnd.api+json',
        'application/json-patch+json',
        'application/*',
        '*/*',
        '',
        'application/',
        'json',
        'application/json; foo',
        'application/json, text/plain',
        'text/json',
      ),
      headerValue,
    );
    const bodyBytes = fc.oneof(
      bodyText.map((text) => Buffer.from(text, 'utf8')),
      fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
      fc.constant(Buffer.alloc(0)),
    );
    const encoding = fc.option(fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'GZIP', 'x-gzip', 'compress', '', 'gzip, gzip'));
    await fc.assert(
      fc.asyncProperty(contentType, bodyBytes, encoding, fc.boolean(), async (type, body, coding, compressIt) => {
        const compress =
          coding !== null && compressIt
            ? { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync }[coding.toLowerCase()]
            : undefined;
        const headers: Array<readonly [string, string]> = [AUTH, ['Content-Type', type]];
        if (coding !== null) headers.push(['Content-Encoding', coding]);
        const request: Outgoing = { method: 'POST', target: '/v1/pets', headers, body: compress === undefined ? body : compress(body) };
        const res = await send(request);
        const what = describeRequest(request);
        expectSoundAnswer(res, 'POST', what);
        if (res.status === 201) {
          expect(type.toLowerCase(), what).to.match(/^application\/json\s*(;|$)/);
          const expected = expectedPet(new TextDecoder('utf-8', { fatal: true }).decode(body));
          expect(expected, `${what} was created but is no NewPet`).not.to.equal(undefined);
          await expectCreated(res, expected!, what);
        }
      }),
      settings(150),
    );
    await expectStillServingAndClean();
  });

  it('answers any query string on GET /v1/pets with 200 and at most `limit` pets, or 400 invalid_parameter', async () => {
    await createSentinel('one');
    await createSentinel('two');
    const issued = (await send({ method: 'GET', target: '/v1/pets?limit=1', headers: [AUTH] })).headers['link'];
    const cursor = /cursor=([^>&]+)>/.exec(issued ?? '')?.[1] ?? 'none';
    const name = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom('limit', 'status', 'cursor') },
      {
        weight: 1,
        arbitrary: fc.constantFrom('__proto__', 'constructor', 'hasOwnProperty', 'limit[]', 'LIMIT', 'status[0]', '__proto__[polluted]'),
      },
      { weight: 1, arbitrary: urlPart },
    );
    const value = fc.oneof(
      fc.constantFrom(
        '1',
        '20',
        '100',
        '0',
        '101',
        '-1',
        '+5',
        '1e1',
        '1.0',
        '%201',
        '0x10',
        '١',
        '',
        'available',
        'pending',
        'sold',
        'SOLD',
        cursor,
        `${cursor}x`,
      ),
      urlPart,
    );
    const pair = fc.oneof(
      fc.tuple(name, value).map(([n, v]) => `${n}=${v}`),
      name,
    );
    await fc.assert(
      fc.asyncProperty(fc.array(pair, { maxLength: 6 }), async (pairs) => {
        const target = `/v1/pets?${pairs.join('&')}`;
        const request: Outgoing = { method: 'GET', target, headers: [AUTH] };
        const res = await send(request);
        const what = describeRequest(request);
        expectSoundAnswer(res, 'GET', what);
        expect(res.status, `${what}: ${res.text}`).to.be.oneOf([200, 400]);
        if (res.status === 200) {
          const limit = new URLSearchParams(pairs.join('&')).get('limit');
          expect(res.json, what)
            .to.be.an('array')
            .with.length.at.most(limit === null ? 20 : Number(limit));
          await assertDocumented('GET', `${server.url}/v1/pets`, res);
        } else if (res.json.code !== 'bad_request') {
          // bad_request: Node's HTTP parser refused the request line itself.
          expect(res.json.code, what).to.equal('invalid_parameter');
          for (const detail of res.json.details) expect(detail.in, what).to.equal('query');
        }
      }),
      settings(150),
    );
    await expectStillServingAndClean();
  });

  it('answers any method on any path with a documented answer or a 4xx Error, and serves no file it should not', async () => {
    const segment = fc.oneof(
      fc.constantFrom(
        'v1',
        'pets',
        'docs',
        'assets',
        'healthz',
        'readyz',
        'metrics',
        'openapi.json',
        'errors',
        'deprecations',
        'V1',
        'Pets',
        'package.json',
        'constructor',
        '__proto__',
        'toString',
      ),
      urlPart,
    );
    const id = fc.oneof(
      fc.bigInt().map(String),
      fc.constantFrom(
        '0',
        '-1',
        '01',
        '1.0',
        '1e3',
        '0x1',
        '9223372036854775807',
        '9223372036854775808',
        '9'.repeat(30),
        '%31',
        '١٢',
        '%00',
        ' 1',
      ),
      urlPart,
    );
    const target = fc.oneof(
      id.map((petId) => `/v1/pets/${petId}`),
      fc.array(segment, { minLength: 1, maxLength: 6 }).map((parts) => `/${parts.join('/')}`),
      fc
        .tuple(
          fc.constantFrom('/docs/assets/', '/v1/pets/', '/'),
          fc.constantFrom('..%2F', '%2e%2e/', '../', '..\\', '%252e%252e%252f'),
          fc.nat({ max: 4 }),
        )
        .map(([base, up, times]) => `${base}${up.repeat(times + 1)}package.json`),
      fc.integer({ min: 1000, max: 20_000 }).map((n) => `/v1/${'a'.repeat(n)}`),
      fc.constantFrom('*', 'http://petstore.test/v1/pets', '//v1/pets', '/v1//pets', '/v1/pets/'),
    );
    const method = fc.constantFrom(
      'GET',
      'HEAD',
      'POST',
      'PUT',
      'PATCH',
      'DELETE',
      'OPTIONS',
      'TRACE',
      'get',
      'FOO',
      'M-SEARCH',
      'PROPFIND',
      'LINK',
    );
    await fc.assert(
      fc.asyncProperty(method, target, async (verb, path) => {
        const request: Outgoing = { method: verb, target: path, headers: [AUTH] };
        const res = await send(request);
        const what = describeRequest(request);
        expectSoundAnswer(res, verb, what);
        // OPTIONS is answered 200 with Allow and no body wherever a route has the path: no file is sent.
        if (res.status === 200 && verb !== 'OPTIONS' && path.startsWith('/docs/assets/')) {
          expect(path, `${what} served a file`).to.match(/^\/docs\/assets\/(swagger-ui\.css|swagger-ui-bundle\.js|favicon-32x32\.png)$/);
        }
        // Where the URL parser sees the same path as the server, the answer must be the documented
        // one (but for the HTTP layer's own answers, which come before any operation).
        const sameForUrlParser =
          path.startsWith('/') && !path.startsWith('//') && new URL(path, server.url).pathname === path.split('?')[0];
        if (sameForUrlParser && (res.status < 400 || res.json?.requestId !== undefined)) {
          await assertDocumented(verb, `${server.url}${path}`, res);
        }
      }),
      settings(150),
    );
    // Names every object has are no asset: each is a 404 Error, not a dropped connection.
    for (const name of ['constructor', '__proto__', 'hasOwnProperty', 'toString']) {
      const res = await send({ method: 'GET', target: `/docs/assets/${name}`, headers: [AUTH] });
      expect(res.status, name).to.equal(404);
      expect(res.json?.code, name).to.equal('not_found');
    }
    await expectStillServingAndClean();
  });

  it('lets no request in without the key, whatever its headers, and echoes no key', async () => {
    const validAuthorization = new RegExp(`^bearer +${TEST_API_KEY.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}$`, 'i');
    const authorization = fc.oneof(
      headerValue,
      headerValue.map((v) => `Bearer ${v}`),
      fc.constantFrom(
        TEST_API_KEY,
        `Bearer ${TEST_API_KEY}x`,
        `Bearer ${TEST_API_KEY.slice(0, -1)}`,
        `Bearer ${TEST_API_KEY.toUpperCase()}`,
        `Bearer${TEST_API_KEY}`,
        `Basic ${Buffer.from(`user:${TEST_API_KEY}`).toString('base64')}`,
        `Bearer ${TEST_API_KEY} extra`,
        `Bearer "${TEST_API_KEY}"`,
        `Bearer ${TEST_API_KEY},${TEST_API_KEY}`,
        'Bearer',
        'Bearer ',
        `Token ${TEST_API_KEY}`,
        // Valid: the scheme in any case, spaces around the key.
        `bEaReR ${TEST_API_KEY}`,
        `Bearer   ${TEST_API_KEY}  `,
      ),
    );
    const headerName = fc.oneof(
      fc.constantFrom(
        'Accept',
        'Accept-Encoding',
        'Accept-Language',
        'X-Request-Id',
        'Idempotency-Key',
        'Content-Type',
        'Content-Encoding',
        'Content-Length',
        'Transfer-Encoding',
        'Expect',
        'Origin',
        'Cookie',
        'Range',
        'If-None-Match',
        'Upgrade',
        'Authorization',
        'X-Forwarded-For',
        'Forwarded',
        'TE',
      ),
      fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,20}$/),
    );
    const target = fc.constantFrom('/v1/pets', '/v1/pets/1', '/v1/pets?limit=2', '/metrics', '/healthz');
    await fc.assert(
      fc.asyncProperty(
        fc.option(authorization, { nil: undefined }),
        fc.array(fc.tuple(headerName, headerValue), { maxLength: 5 }),
        target,
        fc.constantFrom('GET', 'POST', 'HEAD'),
        async (auth, extra, path, verb) => {
          const headers: Array<readonly [string, string]> = [...(auth === undefined ? [] : [['Authorization', auth] as const]), ...extra];
          const body = verb === 'POST' ? Buffer.from('{"name":"Header test","categoryId":2}') : undefined;
          if (body !== undefined) headers.push(JSON_TYPE);
          const request: Outgoing = { method: verb, target: path, headers, ...(body === undefined ? {} : { body }) };
          const res = await send(request);
          const what = describeRequest(request);
          expectSoundAnswer(res, verb, what);
          // The HTTP layer's own answers (400, 408, 417, 431, 501: no requestId) come before any
          // operation, without its headers (Deprecation…); the other answers are the documented ones.
          if (res.status < 400 || res.json?.requestId !== undefined) await assertDocumented(verb, `${server.url}${path}`, res);
          // Only one Authorization line may let a request in; Node trims spaces and tabs around values.
          const lines = headers.filter(([name]) => name.toLowerCase() === 'authorization');
          const sent = lines.length === 1 ? lines[0]![1].replace(/^[ \t]+|[ \t]+$/g, '') : undefined;
          if (res.status < 300 && path.startsWith('/v1/')) {
            expect(sent, `${what} got in`).to.match(validAuthorization);
          }
          const everything = `${JSON.stringify(res.headers)}${res.text}`;
          expect(everything, what).not.to.contain(TEST_API_KEY);
        },
      ),
      settings(200),
    );
    await expectStillServingAndClean();
  });
});
