// The service's @koa/router, as an integrator sees it: routes added to `petStore.router` are
// served beside the service's, behind its request ids, metrics, 405/OPTIONS and JSON errors.
import { expect } from 'chai';
import { startHttpServer } from '../../src/adapters/http/http-server.js';
import { createPetStore, type PetStore } from '../../src/composition/pet-store.js';
import { clientFor } from '../support/http-client.js';
import { TEST_API_KEY } from '../support/test-server.js';

describe("the service's router, shared with integrators", () => {
  let store: PetStore;
  let url: string;
  let close: () => Promise<void>;

  before(async () => {
    store = await createPetStore({ apiKeys: [TEST_API_KEY] });
    // Added after the app was built: the router looks its routes up on each request.
    store.router.get('hello', '/hello/:name', (ctx) => {
      ctx.body = { hello: ctx.params['name'] };
    });
    store.router.get('/broken', () => {
      throw new Error('a bug in the integrator’s handler');
    });
    const server = await startHttpServer(store.app.callback(), { host: '127.0.0.1', port: 0 });
    url = server.url;
    close = async () => {
      await server.close();
      await store.close();
    };
  });
  after(() => close());

  it('serves an added route with the request id of every answer, and keeps serving its own', async () => {
    const res = await fetch(`${url}/hello/w%C3%B6rld`, { headers: { 'X-Request-Id': 'integrator-1' } });
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ hello: 'wörld' });
    expect(res.headers.get('x-request-id')).to.equal('integrator-1');
    expect((await clientFor(url, TEST_API_KEY).get('/v1/pets')).status).to.equal(200);
  });

  it("answers another method on an added route with the router's 405, Allow and the Error body, and OPTIONS with Allow", async () => {
    const res = await fetch(`${url}/hello/you`, { method: 'DELETE' });
    expect(res.status).to.equal(405);
    expect(res.headers.get('allow')).to.equal('HEAD, GET');
    expect(await res.json()).to.deep.include({
      code: 'method_not_allowed',
      status: 405,
      message: 'DELETE is not allowed on /hello/you; use HEAD, GET',
    });
    const options = await fetch(`${url}/hello/you`, { method: 'OPTIONS' });
    expect(options.status).to.equal(200);
    expect(options.headers.get('allow')).to.equal('HEAD, GET');
  });

  it('answers a fault of an added route with the 500 Error body, no stack trace', async () => {
    const res = await fetch(`${url}/broken`);
    expect(res.status).to.equal(500);
    const body = await res.json();
    expect(body).to.deep.include({ code: 'internal_error', status: 500 });
    expect(JSON.stringify(body)).not.to.contain('integrator');
  });

  it('counts an added route in the metrics under its template', async () => {
    await fetch(`${url}/hello/metrics`);
    const text = await (await fetch(`${url}/metrics`)).text();
    expect(text).to.contain('petstore_http_requests_total{method="GET",route="/hello/:name",status="200"}');
  });

  it('names the routes of the service, so that their URLs can be built', () => {
    expect(store.router.url('getPet', { petId: 7 })).to.equal('/v1/pets/7');
    expect(store.router.url('listPets', {}, { query: { limit: 5 } })).to.equal('/v1/pets?limit=5');
  });
});
