// The nats-server of a --events or --outage run: the bench's own, with JetStream, on a free port
// of 127.0.0.1 and a store in a temp folder, so that it never touches a stream another user
// shares. Started once for the run and stopped, its store removed, at the end; an outage run
// kills it meanwhile and starts it again on the same port, with the same store.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { treeTicks } from './cpu-use.js';
import { onPath } from './load-generator.js';
import { freePort } from './server-process.js';

/** Where Debian's package puts it, a folder that a user's PATH may lack. */
const PACKAGED = '/usr/sbin/nats-server';

/** A running nats-server: where to connect, and its process, whose CPU a measurement counts apart. */
export interface NatsServer {
  readonly url: string;
  /** The process now (a new one after `resume`). */
  readonly pid: number;
  /** "v2.9.10", as it names itself. */
  readonly version: string;
  /** Kills it (SIGKILL: no goodbye to its clients, as a crash or a cut network), keeping its store. */
  halt(): Promise<void>;
  /** Starts it again after `halt`, on the same port with the same store; resolves once it accepts clients. */
  resume(): Promise<void>;
  /** The CPU time of its processes so far (those `halt` ended included), in ticks. */
  ticks(): number;
  /** Stops it and removes its store. */
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
  if (program === undefined) throw new Error('nats-server (with JetStream) is needed: apt-get install -y nats-server');
  const version = /v\d+\S*/.exec(spawnSync(program, ['--version'], { encoding: 'utf8' }).stdout ?? '')?.[0] ?? 'of unknown version';
  const store = mkdtempSync(join(workDir, 'nats-store-'));
  const port = await freePort();
  const url = `nats://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let spent = 0;
  const kill = async (signal: NodeJS.Signals): Promise<void> => {
    if (child === undefined) return;
    const ending = child;
    child = undefined;
    spent += treeTicks([ending.pid!]);
    ending.kill(signal);
    const killer = setTimeout(() => ending.kill('SIGKILL'), 5000);
    await ended(ending);
    clearTimeout(killer);
  };
  const launch = async (): Promise<void> => {
    const started = spawn(program, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', store], { stdio: ['ignore', 'ignore', 'pipe'] });
    child = started;
    let stderr = '';
    started.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    const deadline = Date.now() + 10_000;
    while (!(await accepts(url))) {
      if (started.exitCode !== null || Date.now() > deadline) {
        await kill('SIGTERM');
        throw new Error(`nats-server did not start on ${url}:\n${stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const stop = async (): Promise<void> => {
    await kill('SIGTERM');
    rmSync(store, { recursive: true, force: true });
  };
  await launch().catch(async (err: unknown) => {
    await stop();
    throw err;
  });
  return {
    url,
    get pid() {
      return child?.pid ?? 0;
    },
    version,
    halt: () => kill('SIGKILL'),
    resume: launch,
    ticks: () => spent + (child === undefined ? 0 : treeTicks([child.pid!])),
    stop,
  };
}
