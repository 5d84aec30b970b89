// The HTTP adapter mounted inside another Koa app under a prefix (koa-mount): the parent keeps
// its own routes, and every link the service sends keeps the prefix. Every answer is checked
// against docs/openapi.yaml with the prefix taken off.
import Koa from 'koa';
import mount from 'koa-mount';
import { expect } from 'chai';
import { type RunningHttpServer, startHttpServer } from '../../src/adapters/http/http-server.js';
import { createPetStore, type PetStore } from '../../src/composition/pet-store.js';
import { clientFor } from '../support/http-client.js';
import { nextLink } from './beyond-the-seed.suite.js';
import { TEST_API_KEY } from '../support/test-server.js';

const PREFIX = '/petstore';

describe('the HTTP adapter mounted under a prefix', () => {
  let petStore: PetStore;
  let server: RunningHttpServer;
  let api: ReturnType<typeof clientFor>;
  beforeEach(async () => {
    petStore = await createPetStore({ apiKeys: [TEST_API_KEY] });
    const parent = new Koa();
    parent.use(async (ctx, next) => {
      if (ctx.path === '/hello') ctx.body = { from: 'parent' };
      else await next();
    });
    parent.use(mount(PREFIX, petStore.app));
    parent.use(mount('/api', mount('/nested', petStore.app)));
    server = await startHttpServer(parent.callback(), { host: '127.0.0.1', port: 0 });
    api = clientFor(server.url, TEST_API_KEY, PREFIX);
  });
  afterEach(async () => {
    await server.close();
    await petStore.close();
  });
  const raw = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${TEST_API_KEY}`, ...headers } });
  /** A link the service sent, as the path the document knows (the prefix taken off). */
  const unmounted = (link: string) => {
    expect(link.startsWith(`${PREFIX}/`), link).to.equal(true);
    return link.slice(PREFIX.length);
  };

  it('leaves the parent its own routes, and its own 404 outside the prefix', async () => {
    expect(await (await raw('/hello')).json()).to.deep.equal({ from: 'parent' });
    const outside = await raw('/v1/pets');
    expect(outside.status).to.equal(404);
    expect(outside.headers.get('content-type')).to.match(/^text\/plain/); // Koa's, not the service's
  });

  it('answers 201 with a Location under the prefix, and that Location is the pet', async () => {
    const created = await api.postJson('/v1/pets', { name: 'Rex', categoryId: 1 });
    expect(created.status).to.equal(201);
    expect(created.headers['location']).to.equal(`${PREFIX}/v1/pets/${created.json.id}`);
    const fetched = await api.get(unmounted(String(created.headers['location'])));
    expect(fetched.json).to.deep.equal(created.json);
  });

  it('links to the next page under the prefix, and following the links walks every pet once', async () => {
    for (const name of ['a', 'b', 'c']) await api.postJson('/v1/pets', { name, categoryId: 1 });
    const first = await api.get('/v1/pets?limit=2&status=available');
    expect(nextLink(first)).to.match(new RegExp(`^${PREFIX}/v1/pets\\?limit=2&status=available&cursor=`));
    const second = await api.get(unmounted(nextLink(first)!));
    expect([...first.json, ...second.json].map((p: { name: string }) => p.name)).to.deep.equal(['a', 'b', 'c']);
    expect(nextLink(second)).to.equal(undefined);
  });

  it('sends the deprecation links of GET /pets/{petId} under the prefix, and both targets answer', async () => {
    const created = await api.postJson('/v1/pets', { name: 'Old', categoryId: 1 });
    const res = await api.get(`/v1/pets/${created.json.id}`);
    expect(res.headers['link']).to.equal(
      `<${PREFIX}/v1/pets>; rel="successor-version", <${PREFIX}/docs/deprecations>; rel="deprecation"; type="text/markdown"`,
    );
    const notes = await raw(`${PREFIX}/docs/deprecations`);
    expect(notes.status).to.equal(200);
    expect(notes.headers.get('content-type')).to.match(/^text\/markdown/);
    expect((await api.get('/v1/pets')).status).to.equal(200);
  });

  it('points problem details, the served OpenAPI document and the API reference page at the prefix', async () => {
    const problem = await raw(`${PREFIX}/v1/pets`, { Authorization: '', Accept: 'application/problem+json' });
    expect(((await problem.json()) as { type: string }).type).to.equal(`${PREFIX}/docs/errors#unauthorized`);
    const document = (await (await raw(`${PREFIX}/v1/openapi.json`)).json()) as { servers: Array<{ url: string }> };
    expect(document.servers[0]!.url).to.equal(`${PREFIX}/v1`);
    const page = await (await raw(`${PREFIX}/docs`)).text();
    const references = [...page.matchAll(/(?:href|src|data-openapi-url)="([^"]+)"/g)].map((m) => m[1]!);
    expect(references).to.have.length(5);
    for (const reference of references) {
      expect(reference.startsWith(`${PREFIX}/`), reference).to.equal(true);
      expect((await raw(reference)).status, reference).to.equal(200);
    }
    expect((await raw(`${PREFIX}/healthz`)).status).to.equal(200);
  });

  it("points the links of the served document's description at the prefix, and each answers", async () => {
    const document = (await (await raw(`${PREFIX}/v1/openapi.json`)).json()) as { info: { description: string } };
    const links = [...document.info.description.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!);
    expect(links).to.include.members([`${PREFIX}/docs/errors`, `${PREFIX}/docs/api-conventions`]);
    for (const link of links) {
      expect(link.startsWith(`${PREFIX}/`), link).to.equal(true);
      expect((await raw(link)).status, link).to.equal(200);
    }
  });

  it('keeps every prefix of nested mounts', async () => {
    const created = await clientFor(server.url, TEST_API_KEY, '/api/nested').postJson('/v1/pets', { name: 'Deep', categoryId: 1 });
    expect(created.headers['location']).to.equal(`/api/nested/v1/pets/${created.json.id}`);
    const res = await raw(`/api/nested/v1/pets/${created.json.id}`);
    expect(res.headers.get('link')).to.contain('</api/nested/docs/deprecations>; rel="deprecation"');
  });

  it('serves from the root with no prefix in its links when it is not mounted', async () => {
    const direct = await startHttpServer(petStore.app.callback(), { host: '127.0.0.1', port: 0 });
    try {
      const root = clientFor(direct.url, TEST_API_KEY);
      const created = await root.postJson('/v1/pets', { name: 'Root', categoryId: 1 });
      expect(created.headers['location']).to.equal(`/v1/pets/${created.json.id}`);
      expect((await root.get(`/v1/pets/${created.json.id}`)).headers['link']).to.contain('</docs/deprecations>; rel="deprecation"');
    } finally {
      await direct.close();
    }
  });
});
