// What the service adds to interface 1.0.0, over real HTTP: cursor paging with Link headers,
// deprecation signals on GET /pets/{petId}, Location on 201, and Idempotency-Key on POST /pets.
import { expect } from 'chai';
import { clientFor, request, type TestResponse } from '../support/http-client.js';
import { expectError } from '../support/expect-error.js';
import { holdFirstGrantedClaim } from '../support/held-claim.js';
import {
  OTHER_TEST_API_KEY,
  serveEachTest,
  startTestServer,
  TEST_API_KEY,
  type TestDatabase,
  type TestServer,
} from '../support/test-server.js';

/** The target of the Link rel="next" of a response, or undefined when there is none. */
export const nextLink = (res: TestResponse): string | undefined => /<([^>]+)>;\s*rel="next"/.exec(String(res.headers['link'] ?? ''))?.[1];

export function beyondTheSeedSuite(name: string, database: () => TestDatabase | Promise<TestDatabase>): void {
  describe(`HTTP beyond the seed on ${name}`, () => {
    const live = serveEachTest(database);
    let server: TestServer;
    let api: ReturnType<typeof clientFor>;
    beforeEach(() => {
      ({ server, api } = live);
    });

    const createMany = async (statuses: string[]) => {
      const created = [];
      for (const [i, status] of statuses.entries()) {
        const res = await api.postJson('/v1/pets', { name: `pet ${i}`, categoryId: i, status });
        expect(res.status).to.equal(201);
        created.push(res.json as { id: number; status: string });
      }
      return created;
    };

    /** Follows rel="next" from `first`, returning every pet seen, page by page. */
    const walk = async (first: string, onPage: (page: number) => Promise<void> = async () => {}) => {
      const seen: Array<{ id: number; status: string }> = [];
      let url: string | undefined = first;
      for (let page = 0; url !== undefined && page < 1000; page += 1) {
        const res = await api.get(url);
        expect(res.status, res.text).to.equal(200);
        seen.push(...res.json);
        url = nextLink(res);
        await onPage(page);
      }
      return seen;
    };

    describe('cursor paging', () => {
      it('links each page to the next with rel="next" and sends none on the last page', async () => {
        const created = await createMany(Array.from({ length: 7 }, () => 'available'));
        const first = await api.get('/v1/pets?limit=3');
        expect(first.json).to.deep.equal(created.slice(0, 3));
        const next = nextLink(first)!;
        expect(next).to.match(/^\/v1\/pets\?limit=3&cursor=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
        const second = await api.get(next);
        expect(second.json).to.deep.equal(created.slice(3, 6));
        const third = await api.get(nextLink(second)!);
        expect(third.json).to.deep.equal(created.slice(6));
        expect(nextLink(third)).to.equal(undefined);
      });

      it('sends no next link when one page holds everything, exactly full or not', async () => {
        await createMany(['sold', 'sold']);
        expect(nextLink(await api.get('/v1/pets?limit=2'))).to.equal(undefined);
        expect(nextLink(await api.get('/v1/pets'))).to.equal(undefined);
        expect(nextLink(await api.get('/v1/pets?limit=1'))).not.to.equal(undefined);
      });

      it('keeps the status filter across pages and yields each matching pet exactly once', async () => {
        const statuses = Array.from({ length: 23 }, (_, i) => ['sold', 'available', 'pending'][i % 3]!);
        const created = await createMany(statuses);
        const seen = await walk('/v1/pets?status=sold&limit=2');
        expect(seen).to.deep.equal(created.filter((p) => p.status === 'sold'));
      });

      it('yields every pet exactly once while pets are created during the walk', async () => {
        const before = await createMany(Array.from({ length: 10 }, () => 'pending'));
        const during: Array<{ id: number; status: string }> = [];
        // Pets created after the first two pages are served later in the same walk.
        const seen = await walk('/v1/pets?limit=4', async (page) => {
          if (page < 2) during.push(...(await createMany(['pending'])));
        });
        expect(during).to.have.length(2);
        const ids = seen.map((p) => p.id);
        expect(new Set(ids).size).to.equal(ids.length);
        expect(ids).to.deep.equal([...before, ...during].map((p) => p.id));
      });

      it('refuses a tampered, truncated or invented cursor with 400 naming cursor', async () => {
        await createMany(['sold', 'sold', 'sold']);
        const cursor = new URL(nextLink(await api.get('/v1/pets?limit=1'))!, server.url).searchParams.get('cursor')!;
        const [payload, sum] = cursor.split('.');
        const forged = Buffer.from(Buffer.from(payload!, 'base64url').toString().replace(/:\d+:/, ':2:')).toString('base64url');
        for (const bad of [`${forged}.${sum}`, cursor.slice(0, -2), `${cursor}x`, 'abc', '', `${payload}.`, `${cursor}.${sum}`]) {
          const res = await api.get(`/v1/pets?limit=1&cursor=${encodeURIComponent(bad)}`);
          expectError(res, 400, 'invalid_parameter');
          expect(res.json.details[0].field, bad).to.equal('cursor');
        }
      });

      it('refuses a cursor used with another status filter, or without its filter', async () => {
        await createMany(['sold', 'sold', 'sold']);
        const soldNext = new URL(nextLink(await api.get('/v1/pets?status=sold&limit=1'))!, server.url);
        const cursor = soldNext.searchParams.get('cursor')!;
        expect(soldNext.searchParams.get('status')).to.equal('sold');
        for (const query of [`status=available&cursor=${cursor}`, `cursor=${cursor}`]) {
          const res = await api.get(`/v1/pets?${query}`);
          expectError(res, 400, 'invalid_parameter');
          expect(res.json.details[0].field).to.equal('cursor');
        }
        const plainCursor = new URL(nextLink(await api.get('/v1/pets?limit=1'))!, server.url).searchParams.get('cursor')!;
        expectError(await api.get(`/v1/pets?status=sold&cursor=${plainCursor}`), 400, 'invalid_parameter');
      });

      it('lets the page size change between pages', async () => {
        const created = await createMany(Array.from({ length: 6 }, () => 'sold'));
        const cursor = new URL(nextLink(await api.get('/v1/pets?limit=2'))!, server.url).searchParams.get('cursor')!;
        expect((await api.get(`/v1/pets?limit=3&cursor=${cursor}`)).json).to.deep.equal(created.slice(2, 5));
      });
    });

    describe('deprecation of GET /v1/pets/{petId}', () => {
      const expectDeprecationHeaders = (res: TestResponse) => {
        expect(res.headers['deprecation']).to.equal('@1795305600');
        expect(res.headers['sunset']).to.equal('Thu, 05 Dec 2030 00:00:00 GMT');
        expect(String(res.headers['link'])).to.contain('</v1/pets>; rel="successor-version"');
        expect(String(res.headers['link'])).to.contain('</docs/deprecations>; rel="deprecation"');
      };

      it('signals it on every answer of the route: 200, 400, 401 and 404', async () => {
        const [pet] = await createMany(['sold']);
        const answers = [
          await api.get(`/v1/pets/${pet!.id}`),
          await api.get('/v1/pets/abc'),
          await request(server.url, `/v1/pets/${pet!.id}`),
          await api.get('/v1/pets/99999'),
        ];
        expect(answers.map((r) => r.status)).to.deep.equal([200, 400, 401, 404]);
        answers.forEach(expectDeprecationHeaders);
      });

      it('signals it on no other route', async () => {
        await createMany(['sold', 'sold']);
        for (const res of [
          await api.get('/v1/pets'),
          await api.postJson('/v1/pets', { name: 'a', categoryId: 1 }),
          await api.get('/v1/nope'),
        ]) {
          expect(res.headers['deprecation']).to.equal(undefined);
          expect(res.headers['sunset']).to.equal(undefined);
          expect(String(res.headers['link'] ?? '')).not.to.contain('deprecation');
        }
      });

      it('serves the migration notes its Link points to, without a key', async () => {
        const res = await request(server.url, '/docs/deprecations');
        expect(res.status).to.equal(200);
        expect(res.headers['content-type']).to.equal('text/markdown; charset=utf-8');
        expect(res.text).to.contain('GET /v1/pets/{petId}').and.contain('5 December 2030');
      });
    });

    describe('creation', () => {
      it('answers 201 with Location pointing at the new pet', async () => {
        const res = await api.postJson('/v1/pets', { name: 'Rex', categoryId: 1 });
        expect(res.headers['location']).to.equal(`/v1/pets/${res.json.id}`);
        expect((await api.get(res.headers['location'] as string)).json).to.deep.equal(res.json);
      });

      it('creates once per Idempotency-Key: a retry gets the original pet and status, marked as a replay', async () => {
        const headers = { 'Idempotency-Key': '"8e03978e-40d5-43e8-bc93-6894a57f9324"' };
        const first = await api.postJson('/v1/pets', { name: 'Once', categoryId: 3 }, headers);
        expect(first.status).to.equal(201);
        expect(first.headers['idempotent-replayed']).to.equal(undefined);
        // The same pet, written differently (order, white space, explicit default status), is the same request.
        const retry = await api.postJson('/v1/pets', '{ "categoryId": 3, "status": "available", "name": "Once" }', headers);
        expect(retry.status).to.equal(201);
        expect(retry.json).to.deep.equal(first.json);
        expect(retry.headers['location']).to.equal(first.headers['location']);
        expect(retry.headers['idempotent-replayed']).to.equal('true');
        expect((await api.get('/v1/pets')).json).to.have.length(1);
      });

      it('accepts the key without quotes too, and treats different keys as different requests', async () => {
        const a = await api.postJson('/v1/pets', { name: 'A', categoryId: 1 }, { 'Idempotency-Key': 'key-a' });
        const again = await api.postJson('/v1/pets', { name: 'A', categoryId: 1 }, { 'Idempotency-Key': '"key-a"' });
        const b = await api.postJson('/v1/pets', { name: 'A', categoryId: 1 }, { 'Idempotency-Key': 'key-b' });
        expect(again.json.id).to.equal(a.json.id);
        expect(b.json.id).not.to.equal(a.json.id);
      });

      it('answers the same key with another body with 422, creating nothing', async () => {
        const headers = { 'Idempotency-Key': '"k-422"' };
        await api.postJson('/v1/pets', { name: 'First', categoryId: 1 }, headers);
        const res = await api.postJson('/v1/pets', { name: 'Second', categoryId: 1 }, headers);
        expectError(res, 422, 'idempotency_key_reused');
        expect((await api.get('/v1/pets')).json.map((p: { name: string }) => p.name)).to.deep.equal(['First']);
      });

      it('scopes keys to the API key that sent them', async () => {
        const headers = { 'Idempotency-Key': '"shared-key"' };
        const mine = await api.postJson('/v1/pets', { name: 'Mine', categoryId: 1 }, headers);
        const theirs = await clientFor(server.url, OTHER_TEST_API_KEY).postJson('/v1/pets', { name: 'Theirs', categoryId: 1 }, headers);
        expect(theirs.status).to.equal(201);
        expect(theirs.json.id).not.to.equal(mine.json.id);
        expect(theirs.json.name).to.equal('Theirs');
      });

      it('answers concurrent requests with one key with one 201, and 409 to each that comes while the first is in progress', async () => {
        // A server of its own, where the request that claims the key first waits until all eight
        // have claimed it: the other seven come while the first is in progress, on every adapter.
        const requests = 8;
        const db = await database();
        const held = await startTestServer(db.config, { configure: (container) => holdFirstGrantedClaim(container, requests) });
        try {
          const heldApi = clientFor(held.url, TEST_API_KEY);
          const headers = { 'Idempotency-Key': '"concurrent"' };
          const answers = await Promise.all(
            Array.from({ length: requests }, () => heldApi.postJson('/v1/pets', { name: 'Race', categoryId: 1 }, headers)),
          );
          for (const res of answers.filter((r) => r.status !== 201)) {
            expectError(res, 409, 'idempotency_key_in_use');
            expect(res.headers['retry-after']).to.equal('1');
          }
          const created = answers.filter((r) => r.status === 201);
          expect(new Set(created.map((r) => r.json.id)).size).to.equal(1);
          expect(
            answers.filter((r) => r.status === 409),
            'every request that met the first in progress',
          ).to.have.length(requests - 1);
          expect((await heldApi.get('/v1/pets')).json).to.have.length(1);
        } finally {
          await held.close();
          await db.cleanup();
        }
      });

      it('refuses a malformed Idempotency-Key with 400 naming the header, before reading the body', async () => {
        for (const key of ['"unterminated', '"a", "b"', 'x'.repeat(256), '"tab\there"', '', '""']) {
          const res = await api.postJson('/v1/pets', '{not json', { 'Idempotency-Key': key });
          expectError(res, 400, 'invalid_parameter');
          expect(res.json.details[0]).to.deep.include({ in: 'header', field: 'Idempotency-Key' });
        }
      });

      it('does not record a request refused as invalid: the key stays free', async () => {
        const headers = { 'Idempotency-Key': '"after-400"' };
        expectError(await api.postJson('/v1/pets', { name: '', categoryId: 1 }, headers), 400, 'validation_failed');
        expect((await api.postJson('/v1/pets', { name: 'Fixed', categoryId: 1 }, headers)).status).to.equal(201);
      });
    });
  });
}
