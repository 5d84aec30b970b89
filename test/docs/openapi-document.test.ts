// The OpenAPI document is valid OpenAPI 3.1, and the check every HTTP test runs against it
// really refuses answers the document does not describe.
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import { load } from 'js-yaml';
import { assertDocumented } from '../support/openapi-contract.js';

const json = { 'content-type': 'application/json; charset=utf-8' };
const pet = { id: 1, name: 'Rex', categoryId: 1, status: 'sold' };

const refusal = async (method: string, url: string, res: Parameters<typeof assertDocumented>[2]): Promise<string> => {
  try {
    await assertDocumented(method, url, res);
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
};

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const result = await new Validator().validate(load(readFileSync('docs/openapi.yaml', 'utf8')) as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? [], JSON.stringify(result.errors)).to.deep.equal([]);
    expect(result.valid).to.equal(true);
  });

  // V8 keeps an object key in the encoding of the first string it met with that text, and
  // js-yaml's keys are cut from the document: one character beyond Latin-1 anywhere in it
  // (an ellipsis, a dash) made 'requestId' and 'status' two-byte strings for the whole process,
  // so that every request's log line was two-byte and about 9 % of a get by id went into
  // measuring and copying it (docs/decisions/0014-openapi-document-in-latin-1.md).
  it('holds only Latin-1 characters, so that the keys it shares with the log lines stay one-byte strings', () => {
    const beyondLatin1 = [...readFileSync('docs/openapi.yaml', 'utf8').matchAll(/[^\u0000-\u00ff]/gu)].map((m) => m[0]);
    expect(beyondLatin1, 'write ... for an ellipsis and - for a dash or a minus').to.deep.equal([]);
  });

  it('is enforced: the response check accepts what it documents and refuses what it does not', async () => {
    const url = 'http://127.0.0.1:1/v1/pets';
    expect(await refusal('GET', url, { status: 200, headers: json, json: [pet] })).to.equal('accepted');
    expect(await refusal('GET', url, { status: 200, headers: json, json: [{ ...pet, status: 'lost' }] })).to.contain('body differs');
    expect(await refusal('GET', url, { status: 200, headers: json, json: [{ id: 1 }] })).to.contain('body differs');
    expect(await refusal('GET', url, { status: 418, headers: json, json: {} })).to.contain('not documented');
    expect(await refusal('GET', url, { status: 200, headers: { 'content-type': 'text/plain' }, json: undefined })).to.contain(
      'Content-Type',
    );
    const created = { status: 201, headers: json, json: pet };
    expect(await refusal('POST', url, created)).to.contain('Location is missing');
    // Since 1.1.0 a 201 carries the new pet's ETag as well.
    expect(await refusal('POST', url, { ...created, headers: { ...json, location: '/v1/pets/1' } })).to.contain('ETag is missing');
    expect(await refusal('POST', url, { ...created, headers: { ...json, location: '/v1/pets/1', etag: '"1-1"' } })).to.equal('accepted');
    expect(await refusal('GET', 'http://127.0.0.1:1/nowhere', { status: 200, headers: json, json: {} })).to.contain(
      'no documented operation',
    );
    expect(await refusal('GET', 'http://127.0.0.1:1/nowhere', { status: 404, headers: json, json: { code: 'not_found' } })).to.contain(
      'not an Error body',
    );
  });
});
