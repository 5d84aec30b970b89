// The API reference page in a real browser (Debian's chromium driven by playwright-core):
// open /docs, enter an API key, run a list call and see its result; and the page opens on
// the operations.
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { browserOrSkip } from '../support/chromium.js';
import { clientFor } from '../support/http-client.js';
import { startTestServer, TEST_API_KEY, type TestServer } from '../support/test-server.js';

describe('the API reference in a browser', function () {
  this.timeout(60_000);
  let browser: Browser;
  let server: TestServer;

  before(async function () {
    browser = await browserOrSkip(this);
    server = await startTestServer({ kind: 'memory' });
    await clientFor(server.url, TEST_API_KEY).postJson('/v1/pets', { name: 'Browser Rex', categoryId: 4, status: 'sold' });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lets a user set a key, run listPets and see the pets it returns', async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (req) => requested.push(req.url()));
    await page.goto(`${server.url}/docs`);
    await page
      .getByRole('button', { name: /authorize/i })
      .first()
      .click();
    await page.locator('#auth-bearer-value').fill(TEST_API_KEY);
    await page.locator('.modal-ux button.authorize').click();
    await page.locator('.modal-ux button.btn-done').click();

    const operation = page.locator('#operations-pets-listPets');
    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: /execute/i }).click();

    const body = operation.locator('.responses-wrapper .live-responses-table .response-col_description pre').first();
    await body.waitFor();
    expect(await body.innerText(), requested.join('\n')).to.contain('Browser Rex');
    expect(await operation.locator('.live-responses-table tr.response .response-col_status').first().innerText()).to.contain('200');
    // Everything the page loaded came from this server: no CDN.
    expect(requested.filter((url) => !url.startsWith(server.url))).to.deep.equal([]);
    await page.close();
  });

  it('opens on the operations: the first one is in view of a 1280x800 window, and the page lists no file of its own', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${server.url}/docs`);
    const first = page.locator('.opblock').first();
    await first.waitFor();
    expect(await first.getAttribute('id')).to.equal('operations-pets-listPets');
    const box = await first.boundingBox();
    // Kept when an assertion fails, to look at; removed when the test passes.
    const screenshot = join(tmpdir(), `petstore-api-reference-${process.pid}.png`);
    await page.screenshot({ path: screenshot });
    expect(box, 'the first operation has no box').not.to.equal(null);
    const where = `box ${JSON.stringify(box)}; screenshot at ${screenshot}`;
    expect(box!.y, where).to.be.at.least(0);
    expect(box!.y + box!.height, where).to.be.at.most(800);
    expect(await page.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY)).to.equal(0);
    const paths = await page.locator('.opblock-summary-path').allInnerTexts();
    expect(paths).to.include('/pets');
    expect(paths.filter((path) => path.startsWith('/docs/init') || path.startsWith('/docs/assets'))).to.deep.equal([]);
    // The description's link to the conventions leads to a page the service serves.
    const conventions = page.locator('.info a', { hasText: 'API conventions' });
    expect(await conventions.getAttribute('href')).to.equal('/docs/api-conventions');
    expect((await page.request.get(`${server.url}/docs/api-conventions`)).status()).to.equal(200);
    await page.close();
    rmSync(screenshot);
  });
});
