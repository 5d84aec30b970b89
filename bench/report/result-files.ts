// What every kind of run shares in writing its results: where they go, how they are written,
// and how the load generator is recorded beside them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadGenerator } from '../harness/load.js';

export const ROOT = new URL('../..', import.meta.url).pathname;
const RESULTS = join(ROOT, 'bench/results');
export const log = (line: string): void => void process.stdout.write(`${line}\n`);
export const count = (n: number): string => n.toLocaleString('en-US');

/** The project's log capture: in the work dir, removed with it at the end of the run. */
export const projectLog = (workDir: string): string => join(workDir, 'project.log');

/** Writes `files` (relative to the root) and says so. */
export function write(files: Record<string, string>): void {
  mkdirSync(RESULTS, { recursive: true });
  for (const [path, content] of Object.entries(files)) writeFileSync(join(ROOT, path), content);
  log(`\nwritten: ${Object.keys(files).join(', ')}`);
}

export const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** The load generator as the results record it: what ran, and why its ratios are compressed when they are. */
export const generatorRecord = (
  generator: LoadGenerator,
  { connections, durationSeconds }: { connections: number; durationSeconds: number },
) => ({
  name: generator.name,
  command: generator.describe(connections, durationSeconds),
  ...(generator.caveat !== undefined && { caveat: generator.caveat }),
});

/** Said under every table of a run whose load generator compresses the ratios. */
export const caveatNote = (generator: LoadGenerator): string => (generator.caveat === undefined ? '' : `\n\nWARNING: ${generator.caveat}.`);
