// The load generator of a run: wrk, installed with apt-get where it is missing (as .ci/run does
// for chromium); autocannon, in the bench's own process, only where wrk cannot be had.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import { autocannonGenerator } from './autocannon-load.js';
import type { LoadGenerator } from './load.js';
import { wrkGenerator } from './wrk-load.js';

/** The path of `program` in one of the folders of PATH, as the shell would find it. */
export function onPath(program: string): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(':').filter((d) => d !== '')) {
    try {
      accessSync(join(dir, program), constants.X_OK);
      return join(dir, program);
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/** Runs apt-get quietly; true when it succeeded. */
const aptGet = (...args: string[]): boolean =>
  spawnSync('apt-get', ['-qq', ...args], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, stdio: 'ignore' }).status === 0;

/** apt-get install wrk, after apt-get update when the first try fails (stale or empty package lists). */
function installWrk(log: (line: string) => void): boolean {
  if (onPath('apt-get') === undefined) return false;
  log('wrk is not installed: apt-get install -y wrk');
  return aptGet('install', '-y', 'wrk') || (aptGet('update') && aptGet('install', '-y', 'wrk'));
}

/** "debian/4.1.0-3+b2", as `wrk -v` names itself. */
const wrkVersion = (program: string): string =>
  /^wrk (\S+)/.exec(spawnSync(program, ['-v'], { encoding: 'utf8' }).stdout ?? '')?.[1] ?? 'of unknown version';

export function chooseLoadGenerator(workDir: string, log: (line: string) => void): LoadGenerator {
  const wrk = onPath('wrk') ?? (installWrk(log) ? onPath('wrk') : undefined);
  if (wrk !== undefined) return wrkGenerator(wrk, wrkVersion(wrk), workDir);
  log(`WARNING: ${autocannonGenerator.caveat}`);
  return autocannonGenerator;
}
