// Interface 1.1 over real HTTP: PATCH and DELETE of a pet, ETags and conditional requests,
// and two conditional changes racing. Runs on every storage adapter (see http-api.test.ts).
import { expect } from 'chai';
import type { PetRepository } from '../../src/domain/index.js';
import { TOKENS } from '../../src/composition/tokens.js';
import { clientFor, request, type TestResponse } from '../support/http-client.js';
import { expectError } from '../support/expect-error.js';
import { serveEachTest, startTestServer, TEST_API_KEY, type TestDatabase } from '../support/test-server.js';

const MERGE_PATCH = { 'Content-Type': 'application/merge-patch+json' };
const DEPRECATION_HEADERS = ['deprecation', 'sunset', 'link'];

export function petChangesSuite(name: string, database: () => TestDatabase | Promise<TestDatabase>): void {
  describe(`HTTP API 1.1, pets that change, on ${name}`, () => {
    const live = serveEachTest(database);
    const api = () => live.api;
    const create = async (body: Record<string, unknown> = { name: 'Rex', categoryId: 7 }) => {
      const res = await api().postJson('/v1/pets', body);
      expect(res.status, res.text).to.equal(201);
      return res;
    };
    const patch = (id: number | string, body: unknown, headers: Record<string, string> = {}) =>
      api().send(`/v1/pets/${id}`, { method: 'PATCH', headers: { ...MERGE_PATCH, ...headers }, body: JSON.stringify(body) });
    const remove = (id: number | string, headers: Record<string, string> = {}) =>
      api().send(`/v1/pets/${id}`, { method: 'DELETE', headers });
    const expectNotDeprecated = (res: TestResponse) => {
      for (const header of DEPRECATION_HEADERS) expect(res.headers[header], header).to.equal(undefined);
    };

    it('gives every answer carrying one pet a strong ETag that changes with the pet', async () => {
      const created = await create();
      const id = created.json.id;
      expect(created.headers['etag']).to.equal(`"${id}-1"`);
      const got = await api().get(`/v1/pets/${id}`);
      expect(got.headers['etag']).to.equal(`"${id}-1"`);
      const changed = await patch(id, { status: 'pending' });
      expect(changed.status).to.equal(200);
      expect(changed.json).to.deep.equal({ ...created.json, status: 'pending' });
      expect(changed.headers['etag']).to.equal(`"${id}-2"`);
      expect((await api().get(`/v1/pets/${id}`)).headers['etag']).to.equal(`"${id}-2"`);
    });

    it('answers a replayed idempotent create as it was first answered, after a change or a deletion too', async () => {
      const body = { name: 'Once', categoryId: 1 };
      const first = await api().postJson('/v1/pets', body, { 'Idempotency-Key': 'k-1' });
      await patch(first.json.id, { name: 'Renamed' });
      const replay = await api().postJson('/v1/pets', body, { 'Idempotency-Key': 'k-1' });
      expect(replay.headers['idempotent-replayed']).to.equal('true');
      expect([replay.status, replay.json, replay.headers['etag']]).to.deep.equal([201, first.json, first.headers['etag']]);
      expect((await remove(first.json.id)).status).to.equal(204);
      const afterDeletion = await api().postJson('/v1/pets', body, { 'Idempotency-Key': 'k-1' });
      expect([afterDeletion.status, afterDeletion.json, afterDeletion.headers['location']]).to.deep.equal([
        201,
        first.json,
        first.headers['location'],
      ]);
      expect((await api().get('/v1/pets')).json, 'nothing created again').to.deep.equal([]);
    });

    it('changes name, categoryId and status with a merge patch, in application/json too; {} changes nothing', async () => {
      const { json: pet } = await create();
      const res = await api().send(`/v1/pets/${pet.id}`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Rexy', categoryId: -3 }),
      });
      expect(res.json).to.deep.equal({ id: pet.id, name: 'Rexy', categoryId: -3, status: 'available' });
      const same = await patch(pet.id, {});
      expect(same.status).to.equal(200);
      expect(same.json).to.deep.equal(res.json);
      expect(same.headers['etag']).to.equal(res.headers['etag']);
      expect((await api().get('/v1/pets')).json).to.deep.equal([res.json]);
    });

    it('reports every invalid field at once; null and unknown fields too', async () => {
      const { json: pet } = await create();
      const res = await patch(pet.id, { name: '', categoryId: 1.5, status: null, colour: 'red' });
      expectError(res, 400, 'validation_failed');
      expect(res.json.details.map((d: { field: string }) => d.field)).to.have.members(['/name', '/categoryId', '/status', '/colour']);
      expectError(await patch(pet.id, { name: null }), 400, 'validation_failed');
      expectError(await patch(pet.id, [1]), 400, 'validation_failed');
      expect((await api().get(`/v1/pets/${pet.id}`)).json).to.deep.equal(pet);
    });

    it('answers a body of another media type 415, as for creation', async () => {
      const { json: pet } = await create();
      const res = await api().send(`/v1/pets/${pet.id}`, { method: 'PATCH', headers: { 'Content-Type': 'text/plain' }, body: '{}' });
      expectError(res, 415, 'unsupported_media_type');
      expectError(await api().send(`/v1/pets/${pet.id}`, { method: 'PATCH', headers: MERGE_PATCH, body: '{nope' }), 400, 'malformed_json');
    });

    it('refuses a status the current one does not lead to with 409, naming the current and allowed statuses', async () => {
      const { json: pet } = await create({ name: 'Rex', categoryId: 1, status: 'sold' });
      const res = await patch(pet.id, { status: 'available', name: 'Back' });
      expectError(res, 409, 'invalid_transition');
      expect(res.json.details).to.deep.equal([
        {
          in: 'body',
          field: '/status',
          message: 'cannot change from sold to available: sold is final',
          currentStatus: 'sold',
          allowedStatuses: [],
        },
      ]);
      const pending = (await create({ name: 'P', categoryId: 1, status: 'pending' })).json;
      expect((await patch(pending.id, { status: 'available' })).status).to.equal(200);
      expect((await patch(pet.id, { status: 'sold' })).status, 'the same status').to.equal(200);
      expect((await api().get(`/v1/pets/${pet.id}`)).json).to.deep.equal(pet);
    });

    it('answers 404 for a missing pet, 400 for an id that is not a positive int64, with no deprecation headers', async () => {
      for (const res of [await patch(999, {}), await remove(999), await patch('9007199254740993', {}), await remove('9007199254740993')]) {
        expectError(res, 404, 'pet_not_found');
        expectNotDeprecated(res);
      }
      for (const res of [await patch('abc', {}), await remove('-1'), await patch('1.5', {})]) {
        expectError(res, 400, 'invalid_parameter');
        expect(res.json.details[0].field).to.equal('petId');
        expectNotDeprecated(res);
      }
      const ok = await patch((await create()).json.id, { status: 'sold' });
      expectNotDeprecated(ok);
    });

    it('needs a key, and lists PATCH and DELETE in Allow', async () => {
      const { json: pet } = await create();
      expectError(
        await request(live.server.url, `/v1/pets/${pet.id}`, { method: 'PATCH', headers: MERGE_PATCH, body: '{}' }),
        401,
        'unauthorized',
      );
      expectError(await request(live.server.url, `/v1/pets/${pet.id}`, { method: 'DELETE' }), 401, 'unauthorized');
      const put = await api().send(`/v1/pets/${pet.id}`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: '{}' });
      expectError(put, 405, 'method_not_allowed');
      expect(String(put.headers['allow']).split(', ')).to.include.members(['GET', 'PATCH', 'DELETE']);
    });

    it('deletes a pet: 204, then 404; gone from the list, get by id and a cursor walk; its id never reused', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 5; i += 1) ids.push((await create({ name: `p${i}`, categoryId: i })).json.id);
      const first = await api().get('/v1/pets?limit=2');
      const del = await remove(ids[2]!);
      expect(del.status).to.equal(204);
      expect(del.text).to.equal('');
      expectNotDeprecated(del);
      expectError(await remove(ids[2]!), 404, 'pet_not_found');
      expectError(await api().get(`/v1/pets/${ids[2]}`), 404, 'pet_not_found');
      const next = String(first.headers['link']).match(/<([^>]+)>/)![1]!;
      const walked = (await api().get(next)).json.map((p: { id: number }) => p.id);
      expect(walked).to.deep.equal([ids[3], ids[4]]);
      expect((await api().get('/v1/pets')).json.map((p: { id: number }) => p.id)).to.deep.equal([ids[0], ids[1], ids[3], ids[4]]);
      await remove(ids[4]!);
      expect((await create()).json.id).to.be.greaterThan(ids[4]!);
    });

    describe('conditional requests', () => {
      it('changes and deletes with a matching If-Match (or *); a stale one is 412 and changes nothing', async () => {
        const created = await create();
        const id = created.json.id;
        const etag = String(created.headers['etag']);
        expect((await patch(id, { name: 'Two' }, { 'If-Match': etag })).status).to.equal(200);
        for (const ifMatch of [etag, `W/"${id}-2"`, '"other"', 'garbage']) {
          expectError(await patch(id, { name: 'Three' }, { 'If-Match': ifMatch }), 412, 'precondition_failed');
          expectError(await remove(id, { 'If-Match': ifMatch }), 412, 'precondition_failed');
        }
        expect((await api().get(`/v1/pets/${id}`)).json.name).to.equal('Two');
        expect((await patch(id, { name: 'Three' }, { 'If-Match': `${etag}, "${id}-2"` })).status).to.equal(200);
        expect((await patch(id, { name: 'Four' }, { 'If-Match': '*' })).status).to.equal(200);
        expect((await remove(id, { 'If-Match': `"${id}-4"` })).status).to.equal(204);
        expectError(await patch(id, {}, { 'If-Match': '*' }), 404, 'pet_not_found');
        expectError(await remove(id, { 'If-Match': '*' }), 404, 'pet_not_found');
      });

      it('checks If-Match before the transition: a stale ETag is 412 even for a refused status', async () => {
        const { json: pet } = await create({ name: 'S', categoryId: 1, status: 'sold' });
        expectError(await patch(pet.id, { status: 'available' }, { 'If-Match': `"${pet.id}-9"` }), 412, 'precondition_failed');
      });

      it('answers GET with a matching If-None-Match 304: no body, the ETag and the deprecation headers kept', async () => {
        const created = await create();
        const id = created.json.id;
        const etag = String(created.headers['etag']);
        for (const ifNoneMatch of [etag, `W/${etag}`, `"x", ${etag}`, '*']) {
          const res = await api().get(`/v1/pets/${id}`, { 'If-None-Match': ifNoneMatch });
          expect(res.status, ifNoneMatch).to.equal(304);
          expect(res.text).to.equal('');
          expect(res.headers['etag']).to.equal(etag);
          for (const header of DEPRECATION_HEADERS) expect(res.headers[header], header).not.to.equal(undefined);
        }
        await patch(id, { status: 'pending' });
        const changed = await api().get(`/v1/pets/${id}`, { 'If-None-Match': etag });
        expect(changed.status).to.equal(200);
        expect(changed.json.status).to.equal('pending');
        expectError(await api().get('/v1/pets/999', { 'If-None-Match': '*' }), 404, 'pet_not_found');
      });

      it('refuses a change or deletion with 412 when If-None-Match names the current version, or is * (since 1.2.0)', async () => {
        const created = await create();
        const id = created.json.id;
        const etag = String(created.headers['etag']);
        for (const ifNoneMatch of [etag, `W/${etag}`, `"x", ${etag}`, '*']) {
          const refused = await patch(id, { name: 'Two' }, { 'If-None-Match': ifNoneMatch });
          expectError(refused, 412, 'precondition_failed');
          expect(refused.json.message, ifNoneMatch).to.contain('If-None-Match');
          expectError(await remove(id, { 'If-None-Match': ifNoneMatch }), 412, 'precondition_failed');
        }
        expect((await api().get(`/v1/pets/${id}`)).json, 'nothing changed').to.deep.equal(created.json);
        // An ETag of another version, or a malformed field, names nothing current: the change is made.
        for (const ifNoneMatch of [`"${id}-2"`, 'garbage']) {
          expect((await patch(id, { name: `not ${ifNoneMatch}` }, { 'If-None-Match': ifNoneMatch })).status, ifNoneMatch).to.equal(200);
        }
        // If-Match is checked first: both must hold.
        expectError(await patch(id, { name: 'x' }, { 'If-Match': `"${id}-3"`, 'If-None-Match': `"${id}-3"` }), 412, 'precondition_failed');
        expect((await remove(id, { 'If-Match': `"${id}-3"`, 'If-None-Match': `"${id}-2"` })).status).to.equal(204);
      });

      it('answers GET 412 when If-Match names none of its versions (since 1.2.0), before If-None-Match', async () => {
        const created = await create();
        const id = created.json.id;
        const etag = String(created.headers['etag']);
        for (const ifMatch of [`"${id}-2"`, `W/${etag}`, 'garbage']) {
          const res = await api().get(`/v1/pets/${id}`, { 'If-Match': ifMatch });
          expectError(res, 412, 'precondition_failed');
          for (const header of DEPRECATION_HEADERS) expect(res.headers[header], header).not.to.equal(undefined);
        }
        // Empty list elements are accepted (RFC 9110 §5.6.1.2); tags not separated by a comma are not a list.
        for (const ifMatch of [etag, '*', `"x", ${etag}`, `,${etag}`, `, ,"x",, ${etag} ,`])
          expect((await api().get(`/v1/pets/${id}`, { 'If-Match': ifMatch })).status, ifMatch).to.equal(200);
        for (const ifMatch of [`"x" ${etag}`, ', ,', `${etag}"`])
          expectError(await api().get(`/v1/pets/${id}`, { 'If-Match': ifMatch }), 412, 'precondition_failed');
        expect((await api().get(`/v1/pets/${id}`, { 'If-Match': etag, 'If-None-Match': etag })).status).to.equal(304);
        expectError(await api().get(`/v1/pets/${id}`, { 'If-Match': `"${id}-9"`, 'If-None-Match': etag }), 412, 'precondition_failed');
      });
    });

    describe('two PATCHes racing with the same If-Match', () => {
      it('leave exactly one 200 and one 412 in every round, both requests in flight together', async function () {
        this.timeout(60_000);
        const db = await database();
        // Both requests must have read the pet before either writes: the first two reads of a
        // round wait for each other, so every round is a real race (and fails if one never comes).
        let round: { arrived: number; release: () => void; bothIn: Promise<void> } | undefined;
        const server = await startTestServer(db.config, {
          configure: (c) =>
            c.onActivation<PetRepository>(TOKENS.PetRepository, (_context, repo) => ({
              ...bind(repo),
              findVersioned: async (id) => {
                const found = await repo.findVersioned(id);
                const current = round;
                if (current !== undefined && current.arrived < 2) {
                  current.arrived += 1;
                  if (current.arrived === 2) current.release();
                  await current.bothIn;
                }
                return found;
              },
            })),
        });
        try {
          const client = clientFor(server.url, TEST_API_KEY);
          const { json: pet, headers } = await client.postJson('/v1/pets', { name: 'Raced', categoryId: 1 });
          let etag = String(headers['etag']);
          for (let i = 0; i < 25; i += 1) {
            let release!: () => void;
            const bothIn = new Promise<void>((resolve) => (release = resolve));
            const timeout = setTimeout(release, 10_000);
            round = { arrived: 0, release, bothIn };
            const send = (name: string) =>
              client.send(`/v1/pets/${pet.id}`, {
                method: 'PATCH',
                headers: { ...MERGE_PATCH, 'If-Match': etag },
                body: JSON.stringify({ name }),
              });
            const answers = await Promise.all([send(`a${i}`), send(`b${i}`)]);
            clearTimeout(timeout);
            expect(round.arrived, `round ${i}: both requests read the pet before either answered`).to.equal(2);
            round = undefined;
            expect(answers.map((a) => a.status).sort(), `round ${i}`).to.deep.equal([200, 412]);
            const winner = answers.find((a) => a.status === 200)!;
            expect(winner.headers['etag']).to.equal(`"${pet.id}-${i + 2}"`);
            etag = String(winner.headers['etag']);
            expect((await client.get(`/v1/pets/${pet.id}`)).json.name).to.equal(winner.json.name);
          }
        } finally {
          round = undefined;
          await server.close();
          await db.cleanup();
        }
      });
    });
  });
}

/** The methods of an adapter, bound to it, as an object that may replace some of them. */
function bind(repo: PetRepository): PetRepository {
  return {
    create: (draft) => repo.create(draft),
    createCompleting: (draft, hold) => repo.createCompleting(draft, hold),
    findById: (id) => repo.findById(id),
    list: (query) => repo.list(query),
    findVersioned: (id) => repo.findVersioned(id),
    update: (id, version, draft) => repo.update(id, version, draft),
    remove: (id, version) => repo.remove(id, version),
  };
}
