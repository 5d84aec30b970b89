// The describe()s of a server technology the tests may lack: one for tests on the shared server
// that an environment variable names (which other runs share too), one for tests that start a
// server binary of their own. Without it, each says why in its title and skips its tests.
import { spawnSync } from 'node:child_process';
import { describeUnless } from './describe-unless.js';

export interface ServerSuites {
  /** The shared server's URL, or undefined when its tests are to be skipped. */
  readonly url: string | undefined;
  readonly skipReason: string;
  /** A describe() whose tests need the shared server. */
  readonly describeWithShared: (title: string, body: () => void) => void;
  /** A describe() whose tests start the server binary themselves. */
  readonly describeWithBinary: (title: string, body: () => void) => void;
}

/** `what`'s suites: its shared server named by the environment variable `variable`, its binary `command`. */
export function serverSuites(what: string, variable: string, command: string): ServerSuites {
  const value = process.env[variable];
  const url = value === undefined || value === '' ? undefined : value;
  const skipReason = `${what} tests skipped: ${variable} is not set`;
  const installed = spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;
  return {
    url,
    skipReason,
    describeWithShared: (title, body) => describeUnless(url === undefined ? skipReason : undefined, title, body),
    describeWithBinary: (title, body) =>
      describeUnless(installed ? undefined : `${what} tests skipped: ${command} is not installed`, title, body),
  };
}
