// Runs the `petstore` command line in this process (commands/command-line.ts, what dist/cli.js
// runs), for tests that check what a command does rather than the process around it.
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { runCommandLine } from '../../src/commands/command-line.js';
import type { CommandResult } from './server-process.js';
import { tempDir } from './temp-dir.js';

/** A stream that keeps every byte written to it, decoded once at the end. */
class Collected extends Writable {
  private readonly chunks: Buffer[] = [];

  override _write(chunk: Buffer | string, encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);
    done();
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/** Runs `petstore <args>` in this process with only `env` as its environment; answers its exit code and output. */
export async function runCommand(args: readonly string[], env: Record<string, string>): Promise<CommandResult> {
  const stdout = new Collected();
  const stderr = new Collected();
  const code = await runCommandLine(args, env, { stdout, stderr: stderr as unknown as NodeJS.WriteStream });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/**
 * Loads the commands' modules as the command line does, with import(): a `before` hook's work.
 * Mocha loads test files with require, so the command line's first import() loads the service's
 * modules once more, as ES modules; seconds on a busy machine, which are no test's own work.
 */
export async function loadCommands(): Promise<void> {
  await Promise.all([
    import('../../src/commands/backup.js'),
    import('../../src/commands/categories.js'),
    import('../../src/commands/copy.js'),
    import('../../src/commands/export.js'),
    import('../../src/commands/import.js'),
    import('../../src/commands/keys.js'),
    import('../../src/commands/migrate.js'),
    import('../../src/commands/webhooks.js'),
  ]);
}

/**
 * For each test of the suite, a fresh temp folder (`at(name)` is a path in it) and `run`, which
 * runs a command on the database `db` and answers its standard output, failing the test unless
 * it exits 0; the commands are loaded once, before the suite.
 */
export function commandsInTempDir(): {
  readonly at: (name: string) => string;
  readonly run: (args: readonly string[], db: string) => Promise<string>;
} {
  let dir: ReturnType<typeof tempDir>;
  before(loadCommands);
  beforeEach(() => (dir = tempDir()));
  afterEach(() => dir.remove());
  return {
    at: (name) => join(dir.path, name),
    run: async (args, db) => {
      const result = await runCommand(args, { PETSTORE_DB: db });
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).to.equal(0);
      return result.stdout;
    },
  };
}

/** Where a command test works: a fresh folder, and the environment that names a database file in it. */
export interface CommandFile {
  readonly env: Record<string, string>;
  readonly dir: string;
}

/**
 * Inside a describe(): the commands loaded once, then before each test a fresh folder whose
 * `petstore.db` PETSTORE_DB names, removed after the test. Read the fields inside the tests.
 */
export function commandsOnAFreshFile(): CommandFile {
  const live: { env: Record<string, string>; dir: string } = { env: {}, dir: '' };
  let folder: ReturnType<typeof tempDir> | undefined;
  before(loadCommands);
  beforeEach(() => {
    folder = tempDir();
    live.dir = folder.path;
    live.env = { PETSTORE_DB: join(folder.path, 'petstore.db') };
  });
  afterEach(() => folder?.remove());
  return live;
}
