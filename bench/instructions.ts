// npm run bench:instructions: the CPU instructions one request costs the project and the card
// floor, counted by valgrind's callgrind. Unlike requests per second, the count does not move
// with what else the machine runs (a shared, throttled or stolen CPU): the same build, inputs
// and requests give the same count within a fraction of a percent, so a change of a few
// percent in the service's own cost can be seen on a noisy machine. It counts instructions,
// not time: system calls (the kernel's share) and cache misses are outside it, so it
// complements the wrk run (npm run bench), it does not replace it. See docs/benchmarks.md.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileBaseline } from './baseline-build.js';
import { namesFrom, positive } from './options.js';
import { ROOT } from './result-files.js';
import { type BenchRequest, SCENARIOS } from './scenarios.js';
import { copyDatabase, seedPets } from './seed.js';
import { type ServerCommand, startServer } from './server-process.js';
import { AUTH_HEADERS, projectCommand, referenceCommand } from './servers.js';

const PETS = 10_000;
const CONNECTIONS = 32;
// What valgrind's gdb server names its pipes after; the same for the server and callgrind_control.
const VGDB_ENV = { USER: 'bench', HOST: '127.0.0.1' };

const option = (name: string): string | undefined =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const requests = positive('--requests', option('requests'), 2000);
const READS = SCENARIOS.filter((s) => s.kind === 'read').map((s) => s.id);
const named = namesFrom(option('only'), READS, 'read scenario');
const only = named.length === 0 ? READS : named;

/** Sends `count` requests of `list`, in turn, over CONNECTIONS keep-alive connections; resolves when all are answered with `status`. */
async function load(origin: string, list: readonly BenchRequest[], count: number, status: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  let sent = 0;
  const one = (): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const { method, path } = list[sent++ % list.length]!;
      const req = request(`${origin}${path}`, { method, agent, headers: AUTH_HEADERS }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === status ? resolve() : reject(new Error(`${method} ${path}: ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end();
    });
  const lane = async (): Promise<void> => {
    while (sent < count) await one();
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, lane));
  agent.destroy();
}

const callgrindControl = (args: string[]): void => {
  execFileSync('callgrind_control', args, { env: { ...process.env, ...VGDB_ENV }, stdio: 'ignore' });
};

/** The instructions per request of `command` on the scenario: after a warm-up of twice as many requests, so that V8 has optimised what it will. */
async function instructionsPerRequest(command: ServerCommand, scenarioId: string, outDir: string): Promise<number> {
  const scenario = SCENARIOS.find((s) => s.id === scenarioId)!;
  const outFile = join(outDir, `callgrind.${scenarioId}.${command.label.replace(/\W+/g, '-')}`);
  const server = await startServer(
    {
      ...command,
      env: { ...command.env, ...VGDB_ENV },
      // Instrumented only between `-i on` and `-i off`: start-up, seeding and warm-up are not counted.
      wrapper: ['valgrind', '--tool=callgrind', '--instr-atstart=no', '--smc-check=all-non-file', `--callgrind-out-file=${outFile}`],
    },
    120_000,
  );
  try {
    const prepared = await scenario.prepare({ origin: server.origin, headers: AUTH_HEADERS, pets: PETS });
    if ('skipped' in prepared) throw new Error(`${scenarioId}: ${prepared.skipped}`);
    await load(server.origin, prepared.requests, 2 * requests, scenario.expectedStatus);
    callgrindControl(['-i', 'on', String(server.pid)]);
    await load(server.origin, prepared.requests, requests, scenario.expectedStatus);
    callgrindControl(['-i', 'off', String(server.pid)]);
    callgrindControl(['-d', String(server.pid)]);
  } finally {
    await server.stop();
  }
  const dumps = readdirSync(outDir).filter((name) => name.startsWith(`${outFile.slice(outDir.length + 1)}.`));
  const total = dumps
    .map((name) => Number(/^totals: (\d+)$/m.exec(readFileSync(join(outDir, name), 'utf8'))?.[1] ?? 0))
    .reduce((sum, n) => sum + n, 0);
  if (total === 0) throw new Error(`no instructions were counted for ${command.label} (callgrind_control could not reach it?)`);
  return total / requests;
}

if (spawnSync('valgrind', ['--version']).status !== 0) {
  console.error('valgrind is not installed: apt-get install -y valgrind');
  process.exit(1);
}
const workDir = mkdtempSync(join(tmpdir(), 'petstore-instructions-'));
try {
  const seeded = join(workDir, 'seeded.db');
  await seedPets(seeded, PETS);
  const baselineScript = compileBaseline(ROOT);
  console.log(`callgrind, ${PETS} pets, ${requests} requests counted after ${2 * requests} of warm-up, ${CONNECTIONS} connections`);
  console.log('scenario         | project instructions/request | card floor instructions/request | card floor ÷ project');
  for (const scenarioId of only) {
    const database = (name: string): string => {
      const copy = join(workDir, `${scenarioId}-${name}.db`);
      copyDatabase(seeded, copy);
      return copy;
    };
    const project = await instructionsPerRequest(projectCommand(ROOT, { database: database('project'), logFile: join(workDir, 'project.log') }), scenarioId, workDir);
    const floor = await instructionsPerRequest(referenceCommand('card-floor', ROOT, baselineScript, database('card-floor')), scenarioId, workDir);
    console.log(
      `${scenarioId.padEnd(16)} | ${Math.round(project).toLocaleString('en').padStart(28)} | ${Math.round(floor).toLocaleString('en').padStart(31)} | ${(floor / project).toFixed(3)}`,
    );
  }
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
