// Waiting in a test for something that happens in its own time (a relay's round, a subscriber
// called): checked every 10 ms, and a failure that names what never happened.
import { expect } from 'chai';

/** Resolves once `check` holds; fails the test, naming `what`, after `attempts` checks 10 ms apart. */
export async function eventually(check: () => boolean | Promise<boolean>, what: string, attempts = 200): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect.fail(`never happened: ${what}`);
}
