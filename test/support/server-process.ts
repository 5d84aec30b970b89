// Runs the compiled server (what `npm start` runs: node dist/main.js) as a child process.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const COMPILED_MAIN = join(process.cwd(), 'dist', 'main.js');
/** What `npm run migrate` runs. */
export const COMPILED_MIGRATE = join(process.cwd(), 'dist', 'migrate.js');
/** The `petstore` command (the package's bin). */
export const COMPILED_CLI = join(process.cwd(), 'dist', 'cli.js');

export interface ServerProcess {
  readonly child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code once the process has exited. */
  readonly exited: Promise<number | null>;
}

/**
 * How long a test may wait for a process it starts to be ready. A start costs about a second of
 * CPU (Node, the service's modules, the database opened and migrated), which a 2-core machine
 * busy with other work stretches to several seconds.
 */
export const PROCESS_START_MS = 20_000;

/**
 * The timeout of a test that starts `count` processes, one after another: mocha's 20 s, and the
 * start of each on a busy machine. A test given it says why it needs more than the suite's.
 */
export const timeoutForProcesses = (count: number): number => 20_000 + count * PROCESS_START_MS;

export function spawnServer(env: Record<string, string>, script = COMPILED_MAIN, args: readonly string[] = []): ServerProcess {
  if (!existsSync(script)) throw new Error(`${script} is missing: run "npm run build" first (npm test does)`);
  const child = spawn(process.execPath, [script, ...args], {
    env: { PATH: process.env['PATH'] ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Waits until the process output matches `pattern`, and returns the match. */
export async function waitForOutput(server: ServerProcess, pattern: RegExp, timeoutMs = 15_000): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const match = pattern.exec(server.output());
    if (match) return match;
    if (server.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no output matching ${pattern}:\n${server.output()}`);
}

/** The JSON log lines the process wrote so far (pino, one object per line), in order; a line still being written is left out. */
export function logLinesOf(server: ServerProcess): Array<Record<string, unknown>> {
  const output = server.output();
  return output
    .slice(0, output.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * Waits until the log lines satisfy `done`, and returns them. The server writes its lines in
 * batches, at most 100 ms after they are logged (LOG_DESTINATION in src/adapters/logging/pino-logger.ts), so a line
 * about a request just answered may not be there yet.
 */
export async function waitForLogLines(
  server: ServerProcess,
  done: (lines: Array<Record<string, unknown>>) => boolean,
  timeoutMs = 15_000,
): Promise<Array<Record<string, unknown>>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const lines = logLinesOf(server);
    if (done(lines) || Date.now() > deadline || server.child.exitCode !== null) return lines;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Waits for the "listening" log line and returns the API base URL it names. */
export async function baseUrlOf(server: ServerProcess, timeoutMs = PROCESS_START_MS): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const listening = logLinesOf(server).find((entry) => entry['msg'] === 'listening' && typeof entry['url'] === 'string');
    if (listening !== undefined) return listening['url'] as string;
    if (server.child.exitCode !== null) throw new Error(`server exited early:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`server did not start in time:\n${server.output()}`);
}

/** After a test: sends `signal` to the process unless it has ended already, and waits for its end. */
export async function stopIfRunning(server: ServerProcess | undefined, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (server === undefined || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill(signal);
  await server.exited;
}

export interface CommandResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the compiled `petstore` command to its end, with only `env` (and PATH) as its environment, in `cwd` (this process's by default). */
export function runCli(args: readonly string[], env: Record<string, string>, cwd?: string): Promise<CommandResult> {
  if (!existsSync(COMPILED_CLI)) throw new Error(`${COMPILED_CLI} is missing: run "npm run build" first (npm test does)`);
  const child = spawn(process.execPath, [COMPILED_CLI, ...args], {
    cwd,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  // Decoded by the streams, which keep a character split between two chunks whole.
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
