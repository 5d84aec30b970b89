// Starts a server (the project or the baseline) as a child process on a port of its own,
// waits until it answers, samples its resident memory, and stops it with SIGTERM.
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { processTree } from './cpu-use.js';
import type { NatsTarget } from './event-probe.js';

export interface ServerCommand {
  readonly label: string;
  readonly cwd: string;
  /** Arguments to `node` (flags, then the script). */
  readonly nodeArgs: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Where its standard output is appended; discarded when absent. */
  readonly stdoutFile?: string;
  /** The postgres:// URL of the database it works on, whose backends are watched while it is measured (postgres-activity.ts). */
  readonly postgresUrl?: string;
  /** The nats-server it publishes its change events to: probed while it is measured on creates (event-probe.ts). */
  readonly nats?: NatsTarget;
  /** The only scenarios it is measured in, by id (every scenario when absent). */
  readonly scenarios?: readonly string[];
  /** The Authorization header its requests carry (the bench's API key when absent). */
  readonly headers?: Record<string, string>;
}

export interface RunningServer {
  readonly pid: number;
  /** e.g. http://127.0.0.1:41234 */
  readonly origin: string;
  stop(): Promise<void>;
}

/** A port no one listens on right now (the OS picks it; it is free again when we close). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });

/** Resolves once anything answers HTTP on `origin` (a 401 counts: the server is up). */
function answers(origin: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(`${origin}/v1/pets`, { method: 'GET', agent: false }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}

const exited = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

export async function startServer(command: ServerCommand, timeoutMs = 15_000): Promise<RunningServer> {
  const port = await freePort();
  const stdout = command.stdoutFile === undefined ? 'ignore' : openSync(command.stdoutFile, 'a');
  const child = spawn(process.execPath, command.nodeArgs, {
    env: { ...command.env, PORT: String(port), HOST: '127.0.0.1', PATH: process.env['PATH'] ?? '' },
    cwd: command.cwd,
    stdio: ['ignore', stdout, 'pipe'],
  });
  if (typeof stdout === 'number') closeSync(stdout); // the child has its own copy
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (!(await answers(origin))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${command.label} did not start (exit code ${child.exitCode}):\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    pid: child.pid!,
    origin,
    stop: async () => {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited(child);
      clearTimeout(killer);
    },
  };
}

/** The resident set size of process `pid` in bytes (VmRSS of /proc/<pid>/status). */
export async function residentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) * 1024;
}

/**
 * Samples the RSS of `pid` and its children (a PETSTORE_WORKERS primary and its workers) every
 * `everyMs` until stopped; the peak of their sum is what it returns.
 */
export function samplePeakRss(pid: number, everyMs = 200): { stop(): Promise<number> } {
  let peak = 0;
  const tree = processTree(pid);
  const sample = async (): Promise<void> => {
    const each = await Promise.all(tree.map((member) => residentBytes(member).catch(() => 0)));
    peak = Math.max(
      peak,
      each.reduce((sum, bytes) => sum + bytes, 0),
    );
  };
  void sample();
  const timer = setInterval(() => void sample(), everyMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await sample();
      return peak;
    },
  };
}
