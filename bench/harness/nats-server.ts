// The nats-server of a --events run: the bench's own, with JetStream, on a free port of
// 127.0.0.1 and a store in a temp folder, so that it never touches a stream another user shares.
// Started once for the run and stopped, its store removed, at the end.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { onPath } from './load-generator.js';
import { freePort } from './server-process.js';

/** Where Debian's package puts it, a folder that a user's PATH may lack. */
const PACKAGED = '/usr/sbin/nats-server';

/** A running nats-server: where to connect, and its process, whose CPU a measurement counts apart. */
export interface NatsServer {
  readonly url: string;
  readonly pid: number;
  /** "v2.9.10", as it names itself. */
  readonly version: string;
  stop(): Promise<void>;
}

/** Whether a NATS client can connect to `url` now. */
async function accepts(url: string): Promise<boolean> {
  try {
    await (await connect({ servers: url, timeout: 500, reconnect: false })).close();
    return true;
  } catch {
    return false;
  }
}

const ended = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

/** Starts nats-server -js with a store under `workDir`; rejects, saying how to install it, where there is none. */
export async function startNatsServer(workDir: string): Promise<NatsServer> {
  const program = onPath('nats-server') ?? (existsSync(PACKAGED) ? PACKAGED : undefined);
  if (program === undefined) throw new Error('--events needs nats-server (with JetStream): apt-get install -y nats-server');
  const version = /v\d+\S*/.exec(spawnSync(program, ['--version'], { encoding: 'utf8' }).stdout ?? '')?.[0] ?? 'of unknown version';
  const store = mkdtempSync(join(workDir, 'nats-store-'));
  const port = await freePort();
  const url = `nats://127.0.0.1:${port}`;
  const child = spawn(program, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', store], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const stop = async (): Promise<void> => {
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await ended(child);
    clearTimeout(killer);
    rmSync(store, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  while (!(await accepts(url))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`nats-server did not start on ${url}:\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, pid: child.pid!, version, stop };
}
