// The global fetch with every answer checked against docs/openapi.yaml: what the typed client's
// tests hand the client, so that each answer it gets from the real service is a documented one.
import { urlOf } from './fetch-input.js';
import { assertDocumented } from './openapi-contract.js';

/** fetch, then the answer's status, headers and JSON body checked against the document. */
export const checkedFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  const text = await res.clone().text();
  const json: unknown = text === '' ? undefined : JSON.parse(text);
  await assertDocumented(init?.method ?? 'GET', urlOf(input), { status: res.status, headers: Object.fromEntries(res.headers), json });
  return res;
};
