// A server binary a test runs on its own (redis-server, nats-server): on a free port, waited
// for until it says it is ready, killed without a goodbye to its clients.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** A TCP port of 127.0.0.1 that nothing listens on (now). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** Starts `command` and waits until its stdout or stderr says `ready` (10 s at most). */
export async function runChildServer(command: string, args: readonly string[], ready: string): Promise<ChildProcess> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (chunk: Buffer): void => void (output += chunk.toString('utf8'));
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const deadline = Date.now() + 10_000;
  while (!output.includes(ready)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${command} did not start (${args.join(' ')}):\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return child;
}

/** Kills `child` (SIGKILL: as a crash or a cut network) and waits until it has exited. */
export async function killChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
