// The HTTP behaviour of the whole service, over real HTTP on an ephemeral port.
// The same suite runs on every storage adapter (see http-api.test.ts).
import { expect } from 'chai';
import { clientFor, request } from '../support/http-client.js';
import { expectError } from '../support/expect-error.js';
import { OTHER_TEST_API_KEY, serveEachTest, TEST_API_KEY, type TestDatabase, type TestServer } from '../support/test-server.js';

export type { TestDatabase };

export function httpApiSuite(name: string, database: () => TestDatabase | Promise<TestDatabase>): void {
  describe(`HTTP API on ${name}`, () => {
    const live = serveEachTest(database);
    let server: TestServer;
    let api: ReturnType<typeof clientFor>;
    beforeEach(() => {
      ({ server, api } = live);
    });

    const create = async (body: Record<string, unknown>) => {
      const res = await api.postJson('/v1/pets', body);
      expect(res.status, res.text).to.equal(201);
      return res.json as { id: number; name: string; categoryId: number; status: string };
    };

    describe('authentication', () => {
      it('answers a request without a key with 401 and a Bearer challenge without error code', async () => {
        for (const [method, path] of [
          ['GET', '/v1/pets'],
          ['POST', '/v1/pets'],
          ['GET', '/v1/pets/1'],
        ] as const) {
          const res = await request(server.url, path, { method });
          expectError(res, 401, 'unauthorized');
          expect(res.headers['www-authenticate']).to.equal('Bearer realm="petstore"');
        }
      });

      it('answers a malformed or unknown key with 401 and error="invalid_token"', async () => {
        for (const authorization of [
          'Basic dXNlcjpwYXNz',
          'Bearer',
          'Bearer ',
          'Bearer a b',
          'Bearer ké',
          'Token abc',
          `Bearer ${TEST_API_KEY}x`,
          'Bearer not-a-known-key-at-all',
        ]) {
          const res = await request(server.url, '/v1/pets', { headers: { Authorization: authorization } });
          expectError(res, 401, 'unauthorized');
          expect(res.headers['www-authenticate'], authorization).to.match(/^Bearer realm="petstore", error="invalid_token"/);
        }
      });

      it('accepts the scheme in any case and every configured key', async () => {
        for (const authorization of [`bearer ${TEST_API_KEY}`, `BEARER ${TEST_API_KEY}`, `Bearer ${OTHER_TEST_API_KEY}`]) {
          const res = await request(server.url, '/v1/pets', { headers: { Authorization: authorization } });
          expect(res.status, authorization).to.equal(200);
        }
      });

      it('authenticates before reading the body: no key beats a malformed, foreign or oversized body', async () => {
        const bodies: Array<[Record<string, string>, string]> = [
          [{ 'Content-Type': 'application/json' }, '{not json'],
          [{ 'Content-Type': 'text/plain' }, 'hello'],
          [{ 'Content-Type': 'application/json' }, JSON.stringify({ name: 'x'.repeat(100_000), categoryId: 1 })],
        ];
        for (const [headers, body] of bodies) {
          const res = await request(server.url, '/v1/pets', { method: 'POST', headers, body });
          expectError(res, 401, 'unauthorized');
        }
        expect((await api.get('/v1/pets')).json).to.deep.equal([]);
      });
    });

    describe('GET /v1/pets', () => {
      it('lists no pets on an empty store', async () => {
        const res = await api.get('/v1/pets');
        expect(res.status).to.equal(200);
        expect(res.headers['content-type']).to.equal('application/json; charset=utf-8');
        expect(res.json).to.deep.equal([]);
      });

      it('returns at most 20 pets by default, in ascending id order, from the first', async () => {
        const created = [];
        for (let i = 0; i < 25; i += 1) created.push(await create({ name: `pet ${i}`, categoryId: i }));
        const res = await api.get('/v1/pets');
        expect(res.json).to.deep.equal(created.slice(0, 20));
      });

      it('honours limit from 1 to 100', async () => {
        const created = [];
        for (let i = 0; i < 101; i += 1) created.push(await create({ name: `pet ${i}`, categoryId: 1 }));
        expect((await api.get('/v1/pets?limit=1')).json).to.deep.equal(created.slice(0, 1));
        expect((await api.get('/v1/pets?limit=7')).json).to.deep.equal(created.slice(0, 7));
        expect((await api.get('/v1/pets?limit=100')).json).to.deep.equal(created.slice(0, 100));
      });

      it('filters by status, keeping id order and the limit', async () => {
        const statuses = ['sold', 'available', 'pending', 'sold', 'sold', 'available'];
        const created = [];
        for (const [i, status] of statuses.entries()) created.push(await create({ name: `p${i}`, categoryId: 1, status }));
        const sold = created.filter((p) => p.status === 'sold');
        expect((await api.get('/v1/pets?status=sold')).json).to.deep.equal(sold);
        expect((await api.get('/v1/pets?status=sold&limit=2')).json).to.deep.equal(sold.slice(0, 2));
        expect((await api.get('/v1/pets?status=pending')).json).to.deep.equal(created.filter((p) => p.status === 'pending'));
      });

      it('refuses every other value of limit with 400 naming the parameter', async () => {
        for (const value of ['0', '101', '-1', 'abc', '1.5', '', '1e1', '%20', '99999999999999999999']) {
          const res = await api.get(`/v1/pets?limit=${value}`);
          expectError(res, 400, 'invalid_parameter');
          expect(res.json.details, value).to.deep.equal([{ in: 'query', field: 'limit', message: 'must be an integer between 1 and 100' }]);
          expect(res.json.message).to.contain('limit');
        }
      });

      it('refuses every other value of status with 400 naming the parameter', async () => {
        for (const value of ['Sold', 'SOLD', '', 'lost', 'sold%20']) {
          const res = await api.get(`/v1/pets?status=${value}`);
          expectError(res, 400, 'invalid_parameter');
          expect(res.json.details[0].field, value).to.equal('status');
        }
      });

      it('refuses a repeated parameter, and reports both parameters when both are wrong', async () => {
        expect((await api.get('/v1/pets?limit=5&limit=6')).json.details).to.deep.equal([
          { in: 'query', field: 'limit', message: 'must be given only once' },
        ]);
        expectError(await api.get('/v1/pets?status=sold&status=sold'), 400, 'invalid_parameter');
        const both = await api.get('/v1/pets?limit=0&status=Sold');
        expect(both.json.details.map((d: { field: string }) => d.field)).to.deep.equal(['limit', 'status']);
      });

      it('decodes percent-escapes in parameter names and values, and reads a malformed escape as sent', async () => {
        await create({ name: 'a', categoryId: 1, status: 'sold' });
        await create({ name: 'b', categoryId: 1, status: 'sold' });
        await create({ name: 'c', categoryId: 1, status: 'available' });
        const res = await api.get('/v1/pets?%73tatus=%73old&limit=%31');
        expect(res.status).to.equal(200);
        expect(res.json.map((p: { name: string }) => p.name)).to.deep.equal(['a']);
        const malformed = await api.get('/v1/pets?status=%zz');
        expectError(malformed, 400, 'invalid_parameter');
        expect(malformed.json.details[0].field).to.equal('status');
      });

      it('reads a known parameter even after a thousand unknown ones', async () => {
        for (const name of ['a', 'b', 'c']) await create({ name, categoryId: 1 });
        const filler = Array.from({ length: 1000 }, (_, i) => `x${i}=1`).join('&');
        const res = await api.get(`/v1/pets?${filler}&limit=2`);
        expect(res.status).to.equal(200);
        expect(res.json).to.have.length(2);
      });

      it('ignores query parameters it does not know', async () => {
        await create({ name: 'a', categoryId: 1 });
        const res = await api.get('/v1/pets?cacheBuster=123&__proto__=x');
        expect(res.status).to.equal(200);
        expect(res.json).to.have.length(1);
      });
    });

    describe('POST /v1/pets', () => {
      it('creates a pet: 201 with the assigned id; an omitted status becomes "available"', async () => {
        const res = await api.postJson('/v1/pets', { name: 'Rex', categoryId: 7 });
        expect(res.status).to.equal(201);
        expect(res.headers['content-type']).to.equal('application/json; charset=utf-8');
        expect(res.json).to.deep.equal({ id: res.json.id, name: 'Rex', categoryId: 7, status: 'available' });
        expect(res.json.id).to.be.a('number').greaterThan(0);
        expect((await api.get(`/v1/pets/${res.json.id}`)).json).to.deep.equal(res.json);
      });

      it('keeps a given status', async () => {
        expect((await create({ name: 'Tom', categoryId: 1, status: 'pending' })).status).to.equal('pending');
      });

      it('stores names verbatim: Unicode, quotes, SQL-looking text', async () => {
        for (const name of ["'; DROP TABLE pets; --", 'Ünïcödé 🐕‍🦺 名前', '"double" \\back\\ </script>', '  padded  ']) {
          const created = await create({ name, categoryId: 1 });
          expect(created.name).to.equal(name);
          expect((await api.get(`/v1/pets/${created.id}`)).json.name).to.equal(name);
        }
      });

      it('lists every problem of an invalid body, each with its field path', async () => {
        const res = await api.postJson('/v1/pets', { name: '', categoryId: 'seven', status: 'lost', colour: 'brown' });
        expectError(res, 400, 'validation_failed');
        expect(res.json.details).to.deep.equal([
          { in: 'body', field: '/name', message: 'must not be empty' },
          { in: 'body', field: '/categoryId', message: 'must be an integer between -9007199254740991 and 9007199254740991' },
          { in: 'body', field: '/status', message: 'must be one of available, pending, sold' },
          { in: 'body', field: '/colour', message: 'is not a known field' },
        ]);
        const missing = await api.postJson('/v1/pets', {});
        expect(missing.json.details.map((d: { field: string }) => d.field)).to.deep.equal(['/name', '/categoryId']);
      });

      it('keeps the largest safe category id exactly and refuses larger ones instead of rounding', async () => {
        const exact = await api.postJson('/v1/pets', '{"name":"big","categoryId":9007199254740991}');
        expect(exact.status).to.equal(201);
        expect(exact.text).to.contain('"categoryId":9007199254740991');
        for (const number of [
          '9007199254740992',
          '9007199254740993',
          '-9007199254740993',
          '9223372036854775807',
          '9223372036854775808',
          '1e400',
          '1.5',
        ]) {
          const res = await api.postJson('/v1/pets', `{"name":"big","categoryId":${number}}`);
          expectError(res, 400, 'validation_failed');
          expect(res.json.details[0].field, number).to.equal('/categoryId');
        }
        expect((await api.get('/v1/pets')).json).to.have.length(1);
      });

      it('refuses a name longer than 100 characters', async () => {
        const res = await api.postJson('/v1/pets', { name: 'n'.repeat(101), categoryId: 1 });
        expectError(res, 400, 'validation_failed');
        expect(res.json.details[0]).to.deep.equal({ in: 'body', field: '/name', message: 'must be at most 100 characters long' });
      });

      it('answers malformed JSON with 400 malformed_json', async () => {
        for (const body of ['{"name": "a",', '{bad}', 'nul', '   ']) {
          expectError(await api.postJson('/v1/pets', body), 400, 'malformed_json');
        }
      });

      it('answers an empty or absent body with 400 missing_body', async () => {
        expectError(await api.postJson('/v1/pets', ''), 400, 'missing_body');
        expectError(await api.send('/v1/pets', { method: 'POST' }), 400, 'missing_body');
      });

      it('answers a JSON array, string, number or null with 400 "must be a JSON object"', async () => {
        for (const body of ['[]', '[{"name":"a","categoryId":1}]', '"Rex"', '42', 'null']) {
          const res = await api.postJson('/v1/pets', body);
          expectError(res, 400, 'validation_failed');
          expect(res.json.details, body).to.deep.equal([{ in: 'body', field: '', message: 'must be a JSON object' }]);
        }
      });

      it('answers a body that is not JSON with 415', async () => {
        const body = JSON.stringify({ name: 'a', categoryId: 1 });
        for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
          expectError(
            await api.send('/v1/pets', { method: 'POST', headers: { 'Content-Type': type }, body }),
            415,
            'unsupported_media_type',
          );
        }
        expectError(await api.send('/v1/pets', { method: 'POST', body }), 415, 'unsupported_media_type');
      });

      it('accepts application/json with a charset parameter', async () => {
        const res = await api.postJson('/v1/pets', { name: 'a', categoryId: 1 }, { 'Content-Type': 'application/json; charset=utf-8' });
        expect(res.status).to.equal(201);
      });

      it('answers a body over the 16 KiB limit with 413, and keeps serving', async () => {
        const res = await api.postJson('/v1/pets', JSON.stringify({ name: 'a', categoryId: 1, pad: 'x'.repeat(17 * 1024) }));
        expectError(res, 413, 'payload_too_large');
        expect(res.json.message).to.contain('16384 bytes');
        expect((await api.get('/v1/pets')).status).to.equal(200);
      });
    });

    describe('GET /v1/pets/{petId} (deprecated)', () => {
      it('returns the pet', async () => {
        const created = await create({ name: 'Fido', categoryId: 2, status: 'sold' });
        const res = await api.get(`/v1/pets/${created.id}`);
        expect(res.status).to.equal(200);
        expect(res.json).to.deep.equal(created);
      });

      it('answers an unknown id with 404 pet_not_found, also for int64 ids beyond 2^53', async () => {
        for (const id of ['424242', '9007199254740993', '9223372036854775807']) {
          const res = await api.get(`/v1/pets/${id}`);
          expectError(res, 404, 'pet_not_found');
          expect(res.json.message).to.contain(id);
        }
      });

      it('answers an id that is not a positive int64 with 400 naming petId', async () => {
        for (const id of ['0', '-1', 'abc', '1.5', '1e3', '9223372036854775808', '%20']) {
          const res = await api.get(`/v1/pets/${id}`);
          expectError(res, 400, 'invalid_parameter');
          expect(res.json.details, id).to.deep.equal([{ in: 'path', field: 'petId', message: 'must be a positive integer (int64)' }]);
        }
      });
    });

    describe('routing', () => {
      it('answers unknown paths with a 404 Error body', async () => {
        for (const path of ['/', '/v1', '/v1/nope', '/v2/pets', '/v1/PETS', '/v1/pets/1/toys']) {
          expectError(await api.get(path), 404, 'not_found');
        }
      });

      it('answers a known path with another method with 405 and Allow', async () => {
        const del = await api.send('/v1/pets', { method: 'DELETE' });
        expectError(del, 405, 'method_not_allowed');
        expect(String(del.headers['allow']).split(', ')).to.include.members(['GET', 'POST']);
        const put = await api.send('/v1/pets/1', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: '{}' });
        expectError(put, 405, 'method_not_allowed');
        expect(String(put.headers['allow']).split(', ')).to.include('GET').and.not.include('POST');
        expectError(await api.send('/v1/pets', { method: 'PROPFIND' }), 405, 'method_not_allowed');
      });

      it("answers OPTIONS with the router's 200, Allow and no body", async () => {
        const res = await request(server.url, '/v1/pets', { method: 'OPTIONS' });
        expect(res.status).to.equal(200);
        expect(res.headers['content-length']).to.equal('0');
        expect(String(res.headers['allow']).split(', ')).to.have.members(['HEAD', 'GET', 'POST']);
        const one = await request(server.url, '/v1/pets/1', { method: 'OPTIONS' });
        // Interface 1.1 adds PATCH and DELETE to the path of one pet.
        expect(String(one.headers['allow']).split(', ')).to.have.members(['HEAD', 'GET', 'PATCH', 'DELETE']);
      });
    });
  });
}
