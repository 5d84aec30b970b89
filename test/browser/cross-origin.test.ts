// The API called from a page of another origin, in a real browser (Debian's chromium), with
// CORS on for that origin: the browser's own preflight and checks decide what the page's
// script may send and read, so every call of the interface is made as a web app would.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { browserOrSkip } from '../support/chromium.js';
import { startTestServer, TEST_API_KEY, type TestServer } from '../support/test-server.js';

/** What the page's script saw of one call. */
interface Seen {
  readonly status: number;
  readonly etag: string | null;
  readonly location: string | null;
  readonly requestId: string | null;
}

/** The web app's script: every call of the interface, each answer's status and the headers it may read. */
const PAGE_SCRIPT = `async ({ api, key }) => {
  const call = async (path, init = {}) => {
    const res = await fetch(api + path, { ...init, headers: { Authorization: 'Bearer ' + key, ...init.headers } });
    const { status, headers } = res;
    return { status, etag: headers.get('ETag'), location: headers.get('Location'), requestId: headers.get('X-Request-Id') };
  };
  const created = await call('/v1/pets', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': '"browser-1"' },
    body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
  });
  const id = created.location.split('/').pop();
  const read = await call('/v1/pets/' + id);
  const notModified = await call('/v1/pets/' + id, { headers: { 'If-None-Match': read.etag } });
  const changed = await call('/v1/pets/' + id, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/merge-patch+json', 'If-Match': read.etag },
    body: JSON.stringify({ status: 'pending' }),
  });
  const stale = await call('/v1/pets/' + id, { method: 'DELETE', headers: { 'If-Match': read.etag } });
  const deleted = await call('/v1/pets/' + id, { method: 'DELETE', headers: { 'If-Match': changed.etag } });
  return { id, created, read, notModified, changed, stale, deleted };
}`;

describe('the API from a page of another origin, in a browser', function () {
  this.timeout(60_000);
  let browser: Browser;
  let pageServer: Server | undefined;
  let pageOrigin: string;
  let service: TestServer;

  before(async function () {
    browser = await browserOrSkip(this);
    // The web app's origin: another port is another origin.
    const app = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>app</title>'));
    pageServer = app;
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    pageOrigin = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
    service = await startTestServer({ kind: 'memory' }, { config: { corsOrigins: [pageOrigin] } });
  });

  after(async () => {
    await browser?.close();
    await service?.close();
    const app = pageServer;
    if (app !== undefined) await new Promise((resolve) => app.close(resolve));
  });

  it('creates, reads, changes and deletes a pet with If-Match and If-None-Match, reading ETag, Location and X-Request-Id', async () => {
    const page = await browser.newPage();
    await page.goto(pageOrigin);
    // Text, not a function: the test loader's transform would add helpers the page does not have.
    const seen = await page.evaluate(`(${PAGE_SCRIPT})(${JSON.stringify({ api: service.url, key: TEST_API_KEY })})`);
    const { id, created, read, notModified, changed, stale, deleted } = seen as { id: string } & Record<
      'created' | 'read' | 'notModified' | 'changed' | 'stale' | 'deleted',
      Seen
    >;
    expect([created.status, created.location, created.etag]).to.deep.equal([201, `/v1/pets/${id}`, `"${id}-1"`]);
    expect(created.requestId).to.be.a('string');
    expect([read.status, read.etag]).to.deep.equal([200, `"${id}-1"`]);
    expect(notModified.status).to.equal(304);
    expect([changed.status, changed.etag]).to.deep.equal([200, `"${id}-2"`]);
    expect(stale.status).to.equal(412);
    expect(deleted.status).to.equal(204);
  });
});
