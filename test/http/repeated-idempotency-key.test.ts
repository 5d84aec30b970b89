// An Idempotency-Key sent on two header lines is refused: Node joins repeated lines with ", ",
// and the joined text would be taken for a key nobody sent. One line holding a comma is a key.
import { expect } from 'chai';
import { expectError } from '../support/expect-error.js';
import { encodeRequest } from '../support/hostile-input.js';
import { assertDocumented } from '../support/openapi-contract.js';
import { type RawResponse, rawRequest } from '../support/raw-http.js';
import { memoryDatabase, serveEachTest, TEST_API_KEY } from '../support/test-server.js';

const NEW_PET = { name: 'Twice', categoryId: 4 };

describe('an Idempotency-Key header sent more than once', () => {
  const live = serveEachTest(memoryDatabase);

  /** POST /v1/pets with the NewPet, a valid key and these Idempotency-Key lines, over a raw socket. */
  const postWithKeys = async (...keys: string[]): Promise<RawResponse> => {
    const headers = [
      ['Authorization', `Bearer ${TEST_API_KEY}`],
      ['Content-Type', 'application/json'],
      ...keys.map((key) => ['Idempotency-Key', key] as const),
    ] as const;
    const res = await rawRequest(
      live.server.url,
      encodeRequest({ method: 'POST', target: '/v1/pets', headers, body: Buffer.from(JSON.stringify(NEW_PET)) }),
    );
    await assertDocumented('POST', `${live.server.url}/v1/pets`, res);
    return res;
  };

  it('is refused with 400 invalid_parameter naming the header, whatever the values, and creates nothing', async () => {
    for (const keys of [
      ['x1', 'x1'],
      ['"x1"', '"x1"'],
      ['x1', 'x2'],
      ['x2', 'x1'],
      ['x1', 'x1', 'x1'],
      ['x1', ''],
    ]) {
      const res = await postWithKeys(...keys);
      expectError(res, 400, 'invalid_parameter');
      expect(res.json.details, keys.join(' / ')).to.deep.equal([
        { in: 'header', field: 'Idempotency-Key', message: 'must be given only once' },
      ]);
    }
    expect((await live.api.get('/v1/pets')).json).to.deep.equal([]);
  });

  it('leaves the key free: the retry with one header creates the pet once, and replays it after', async () => {
    expectError(await postWithKeys('x1', 'x1'), 400, 'invalid_parameter');
    const created = await postWithKeys('x1');
    expect(created.status, created.text).to.equal(201);
    const replayed = await postWithKeys('x1');
    expect(replayed.status).to.equal(201);
    expect(replayed.headers['idempotent-replayed']).to.equal('true');
    expect(replayed.json.id).to.equal(created.json.id);
    expect((await live.api.get('/v1/pets')).json).to.have.length(1);
  });

  it('takes one line holding a comma as one key, as sent: the key "x1, x1" is not the key "x1"', async () => {
    const joined = await postWithKeys('x1, x1');
    expect(joined.status, joined.text).to.equal(201);
    expect((await postWithKeys('"x1, x1"')).headers['idempotent-replayed'], 'the quoted form names the same key').to.equal('true');
    const single = await postWithKeys('x1');
    expect(single.status).to.equal(201);
    expect(single.headers['idempotent-replayed']).to.equal(undefined);
    expect(single.json.id).not.to.equal(joined.json.id);
  });
});
