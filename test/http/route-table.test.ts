// The route table on its own, in a bare Koa app over real HTTP: what it matches, what it
// decodes, and what it answers for a known path with another method.
import { expect } from 'chai';
import Koa from 'koa';
import { type RunningHttpServer, startHttpServer } from '../../src/adapters/http/http-server.js';
import { getRoute, matchedRoute, routeParams, routeTable } from '../../src/adapters/http/route-table.js';

async function send(url: string, method = 'GET'): Promise<{ status: number; allow: string | null; body: string }> {
  const res = await fetch(url, { method });
  return { status: res.status, allow: res.headers.get('allow'), body: await res.text() };
}

describe('the route table', () => {
  let server: RunningHttpServer;

  before(async () => {
    const app = new Koa();
    app.use(
      routeTable([
        getRoute('/things', (ctx) => {
          ctx.body = `list via ${matchedRoute(ctx)}`;
        }),
        { method: 'POST', path: '/things', handlers: [(ctx) => void (ctx.body = 'created')] },
        getRoute('/things/:id', async (ctx, next) => {
          ctx.set('X-Guard', 'passed');
          await next();
        }, (ctx) => {
          ctx.body = JSON.stringify(routeParams(ctx));
        }),
        getRoute('/things/:id/parts/:part', (ctx) => {
          ctx.body = JSON.stringify(routeParams(ctx));
        }),
      ]),
    );
    // What comes after the table sees only the paths it does not know.
    app.use((ctx) => {
      ctx.body = `fell through at ${ctx.path}`;
    });
    server = await startHttpServer(app.callback(), { host: '127.0.0.1', port: 0 });
  });
  after(() => server.close());

  it('answers a literal path and names its template', async () => {
    expect((await send(`${server.url}/things`)).body).to.equal('list via /things');
    expect((await send(`${server.url}/things`, 'POST')).body).to.equal('created');
  });

  it('takes one trailing slash as the same path, and is case-sensitive', async () => {
    expect((await send(`${server.url}/things/`)).body).to.equal('list via /things');
    expect((await send(`${server.url}/Things`)).body).to.equal('fell through at /Things');
    expect((await send(`${server.url}/things//`)).body).to.equal('fell through at /things//');
  });

  it('runs the handlers of a route in order and percent-decodes its parameters', async () => {
    const res = await fetch(`${server.url}/things/a%20b`);
    expect(res.headers.get('x-guard')).to.equal('passed');
    expect(JSON.parse(await res.text())).to.deep.equal({ id: 'a b' });
    expect(JSON.parse((await send(`${server.url}/things/7/parts/x`)).body)).to.deep.equal({ id: '7', part: 'x' });
  });

  it('keeps a malformed escape as it was sent, for the handler to refuse', async () => {
    expect(JSON.parse((await send(`${server.url}/things/%E0%A4%A`)).body)).to.deep.equal({ id: '%E0%A4%A' });
  });

  it('answers HEAD like GET, without a body', async () => {
    const res = await send(`${server.url}/things`, 'HEAD');
    expect(res.status).to.equal(200);
    expect(res.body).to.equal('');
  });

  it('answers another method on a known path with 405 and Allow, and OPTIONS with 204 and Allow', async () => {
    const del = await send(`${server.url}/things`, 'DELETE');
    expect(del.status).to.equal(405);
    expect(JSON.parse(del.body)).to.include({ code: 'method_not_allowed', status: 405 });
    expect(del.allow).to.equal('HEAD, GET, POST, OPTIONS');
    const post = await send(`${server.url}/things/7`, 'POST');
    expect(post.status).to.equal(405);
    expect(post.allow).to.equal('HEAD, GET, OPTIONS');
    const options = await send(`${server.url}/things/7`, 'OPTIONS');
    expect(options.status).to.equal(204);
    expect(options.allow).to.equal('HEAD, GET, OPTIONS');
  });

  it('refuses two routes for one method and path when it is built', () => {
    const twice = () => routeTable([getRoute('/a', () => {}), getRoute('/a', () => {})]);
    expect(twice).to.throw('two routes for GET /a');
  });
});
