import { expect } from 'chai';
import { ERROR_CATALOGUE } from '../../src/adapters/http/errors/error-catalogue.js';
import type { TestResponse } from './http-client.js';

/** Asserts the seed's Error body: JSON, `status` equal to the HTTP status, a catalogued `code`. */
export function expectError(res: TestResponse, status: number, code: string): void {
  expect(res.status, res.text).to.equal(status);
  expect(res.headers['content-type']).to.equal('application/json; charset=utf-8');
  expect(res.json, res.text).to.be.an('object');
  expect(res.json.code).to.equal(code);
  expect(Object.keys(ERROR_CATALOGUE)).to.include(code);
  expect(res.json.status).to.equal(status);
  expect(res.json.message).to.be.a('string').and.not.equal('');
  expect(res.text).not.to.match(/\bat .+:\d+:\d+/); // no stack frame ever
}
