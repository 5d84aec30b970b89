// The two phases of an --outage run, each on a fresh project server, database and nats-server,
// with the bench's webhook endpoint registered by `petstore webhooks add`, under a steady load of
// creates: NATS stopped for a while in the middle (what the endpoint's deliveries do meanwhile,
// and whether NATS gets every event once back), then the endpoint made slow (what NATS's delay does).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { type BacklogSample, sampleBacklogs } from '../harness/backlog-sampler.js';
import { waitForQuiet } from '../harness/cpu-use.js';
import { EVENT_STREAM } from '../harness/event-probe.js';
import { DISTURBED_PERCENT } from '../harness/measure.js';
import { type NatsServer, startNatsServer } from '../harness/nats-server.js';
import type { OutageOptions } from '../harness/options.js';
import { type PacedLoad, startPacedCreates } from '../harness/paced-creates.js';
import { measurePhaseCpu, type PhaseCpu } from '../harness/phase-cpu.js';
import { startServer } from '../harness/server-process.js';
import { lastSequence, readStoredEvents, type StoredEvent } from '../harness/stream-events.js';
import { startWebhookReceiver, type WebhookReceiver } from '../harness/webhook-receiver.js';
import { log, projectLog, ROOT } from '../report/result-files.js';
import { AUTH_HEADERS, projectCommand } from '../servers/servers.js';

/** The endpoint's answer when fast, and when slow (phase 2). */
export const FAST_ENDPOINT_MS = 20;
export const SLOW_ENDPOINT_MS = 5000;
/** Phase 2's first seconds, not counted: the server's first creates, before its code is warm. */
export const WARMUP_S = 3;
/** After the load, how long the bench waits for what is still on its way: until nothing came for QUIET_S (beyond the relay's longest back-off of 30 s), DRAIN_S at the most. */
const QUIET_S = 35;
const DRAIN_S = 180;

/** What one phase saw: the load, the endpoint's deliveries, the stream, the backlogs; times in ms since the epoch. */
export interface PhaseRecord {
  readonly load: PacedLoad;
  readonly received: WebhookReceiver['received'];
  readonly peakConcurrent: number;
  readonly stored: readonly StoredEvent[];
  readonly backlogs: readonly BacklogSample[];
  /** When the load started and ended, and the phase's own moments (NATS stopped and back, the endpoint slow). */
  readonly marks: Readonly<Record<string, number>>;
  /** Seconds the bench waited after the load for the deliveries and the stream to hold every event. */
  readonly drainS: number;
  /** Where the CPU went while the load ran. */
  readonly cpu: PhaseCpu;
}

const now = (): number => performance.timeOrigin + performance.now();
const sleep = (seconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

interface Project {
  readonly origin: string;
  readonly pid: number;
  readonly nats: NatsServer;
  readonly receiver: WebhookReceiver;
}

/** `work` on a project server on `database` with its events to a fresh nats-server and the bench's endpoint added; everything stopped after. */
async function withProject<T>(database: string, workDir: string, o: OutageOptions, work: (project: Project) => Promise<T>): Promise<T> {
  const nats = await startNatsServer(workDir);
  const receiver = await startWebhookReceiver(FAST_ENDPOINT_MS);
  try {
    const command = projectCommand(ROOT, { database, logFile: projectLog(workDir), events: nats });
    const concurrency = o.webhookConcurrency === undefined ? {} : { PETSTORE_WEBHOOK_CONCURRENCY: String(o.webhookConcurrency) };
    const server = await startServer({ ...command, env: { ...command.env, ...concurrency } });
    try {
      const env = { PETSTORE_DB: database, PATH: process.env['PATH'] ?? '' };
      await promisify(execFile)(process.execPath, [join(ROOT, 'dist/cli.js'), 'webhooks', 'add', receiver.url], { env });
      return await work({ origin: server.origin, pid: server.pid, nats, receiver });
    } finally {
      await server.stop();
    }
  } finally {
    await receiver.stop();
    await nats.stop();
  }
}

/** Waits until `done()` (checked every second), or nothing moved for QUIET_S, or DRAIN_S; answers the seconds waited. */
async function drain(done: () => Promise<boolean>, progress: () => Promise<number>): Promise<number> {
  const started = now();
  let last = -1;
  let moved = started;
  while (!(await done())) {
    const at = now();
    const reached = await progress();
    if (reached !== last) [last, moved] = [reached, at];
    if (at - moved > QUIET_S * 1000 || at - started > DRAIN_S * 1000) break;
    await sleep(1);
  }
  return (now() - started) / 1000;
}

/** A phase's moments: after so many seconds of load, what to do (answering the name of the moment to mark, if any). */
type Steps = readonly (readonly [seconds: number, action: () => Promise<string | undefined> | string | undefined])[];

/**
 * The load through `steps`, the backlogs sampled meanwhile, then the drain until the stream holds
 * every event of the load, and the endpoint too with `endpointToo`; every stored event read.
 */
async function loaded({ origin, pid, nats, receiver }: Project, rate: number, steps: Steps, endpointToo: boolean): Promise<PhaseRecord> {
  const calm = await waitForQuiet(DISTURBED_PERCENT, 120_000);
  if (!calm.quiet) log(`  (other processes kept the machine busy for ${(calm.waitedMs / 1000).toFixed(0)} s; measuring anyway)`);
  const marks: Record<string, number> = { loadStart: now() };
  const cpu = measurePhaseCpu(pid, () => nats.ticks());
  const client = startPacedCreates(origin, AUTH_HEADERS, rate);
  const sampler = sampleBacklogs(origin);
  for (const [seconds, action] of steps) {
    await sleep(seconds);
    const mark = await action();
    if (mark !== undefined) marks[mark] = now();
  }
  const load = await client.stop();
  marks['loadEnd'] = now();
  const cpuUse = cpu.stop();
  const connection = await connect({ servers: nats.url, name: 'petstore-bench-outage' });
  try {
    const jsm = await jetstreamManager(connection);
    const last = () => lastSequence(jsm, EVENT_STREAM);
    const endpoint = () => (endpointToo ? receiver.received.size : 0);
    const events = eventsOf(load);
    const drainS = await drain(
      async () => (await last()) >= events && (!endpointToo || endpoint() >= events),
      async () => (await last()) + endpoint(),
    );
    const backlogs = sampler.stop();
    const stored = await readStoredEvents(connection, EVENT_STREAM, 1, await last());
    return { load, received: receiver.received, peakConcurrent: receiver.peakConcurrent, stored, backlogs, marks, drainS, cpu: cpuUse };
  } finally {
    await connection.close();
  }
}

/** Events the load's answered changes made: a create each, and the renames. */
const eventsOf = (load: PacedLoad): number => load.creates.length + [...load.renamed.values()].reduce((sum, n) => sum + n, 0);

/** Phase 1: the endpoint fast; NATS stopped after `before` seconds for `outage`, then `after` seconds more. */
export function outagePhase(database: string, workDir: string, o: OutageOptions): Promise<PhaseRecord> {
  return withProject(database, workDir, o, (project) => {
    log(`  ${o.rate} creates/s: ${o.beforeS} s, then NATS stopped for ${o.outageS} s, then ${o.afterS} s; endpoint ${FAST_ENDPOINT_MS} ms`);
    const stop = async () => (await project.nats.halt(), 'natsStopped');
    const resume = async () => (await project.nats.resume(), 'natsBack');
    return loaded(
      project,
      o.rate,
      [
        [o.beforeS, stop],
        [o.outageS, resume],
        [o.afterS, () => undefined],
      ],
      true,
    );
  });
}

/** Phase 2: NATS up; the endpoint fast for `slowS` seconds (after the warm-up), then slow for as long. */
export function slowEndpointPhase(database: string, workDir: string, o: OutageOptions): Promise<PhaseRecord> {
  return withProject(database, workDir, o, (project) => {
    log(
      `  ${o.rate} creates/s: ${WARMUP_S} s warm-up, ${o.slowS} s endpoint ${FAST_ENDPOINT_MS} ms, ${o.slowS} s endpoint ${SLOW_ENDPOINT_MS} ms`,
    );
    const fast = () => 'fast';
    const slow = () => ((project.receiver.delayMs = SLOW_ENDPOINT_MS), 'slow');
    return loaded(
      project,
      o.rate,
      [
        [WARMUP_S, fast],
        [o.slowS, slow],
        [o.slowS, () => undefined],
      ],
      false,
    );
  });
}
