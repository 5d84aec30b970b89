// The API reference page in a real browser (Debian's chromium driven by playwright-core):
// open /docs, enter an API key, run a list call and see its result.
import { existsSync } from 'node:fs';
import { expect } from 'chai';
import { chromium, type Browser } from 'playwright-core';
import { clientFor } from '../support/http-client.js';
import { startTestServer, TEST_API_KEY, type TestServer } from '../support/test-server.js';

const CHROMIUM = process.env['PETSTORE_TEST_CHROMIUM'] ?? '/usr/bin/chromium';

describe('the API reference in a browser', function () {
  this.timeout(60_000);
  let browser: Browser;
  let server: TestServer;

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      console.log(`      (skipped: no browser at ${CHROMIUM}; .ci/run installs Debian's chromium, or set PETSTORE_TEST_CHROMIUM)`);
      this.skip();
    }
    // The flags keep Chromium off the network: this machine refuses every outside connection.
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
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
    await page.getByRole('button', { name: /authorize/i }).first().click();
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
});
