// Debian's chromium, driven by playwright-core, for the tests that need a real browser. The
// flags keep it off the network: this machine refuses every outside connection.
import { existsSync } from 'node:fs';
import type { Context } from 'mocha';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env['PETSTORE_TEST_CHROMIUM'] ?? '/usr/bin/chromium';

/** Why the browser tests are skipped, or undefined when a browser is there. */
const chromiumSkipReason = (): string | undefined =>
  existsSync(CHROMIUM) ? undefined : `no browser at ${CHROMIUM}; .ci/run installs Debian's chromium, or set PETSTORE_TEST_CHROMIUM`;

const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });

/** The browser for a suite's `before`; without one, the suite is skipped with the reason printed. */
export async function browserOrSkip(suite: Context): Promise<Browser> {
  const skipReason = chromiumSkipReason();
  if (skipReason !== undefined) {
    console.log(`      (skipped: ${skipReason})`);
    suite.skip();
  }
  return launchChromium();
}
