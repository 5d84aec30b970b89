// One scenario on one server: start it alone, prepare, warm up, measure under load with
// its peak RSS, stop it. Each measurement has the machine to itself with the load generator.
import { measureCpuUse, waitForQuiet } from './cpu-use.js';
import { type EventDelays, startEventProbe } from './event-probe.js';
import type { LoadGenerator } from './load.js';
import { type PostgresActivity, watchPostgres } from './postgres-activity.js';
import type { Scenario } from '../scenarios/scenarios.js';
import { type ServerCommand, samplePeakRss, startServer } from './server-process.js';
import { AUTH_HEADERS } from '../servers/servers.js';

export interface Measurement {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly peakRssMb: number;
  /** Unexpected statuses and connection errors: a measurement with any is not trusted. */
  readonly failures: number;
  /** CPU use during the measurement, in % of one CPU: the server's, the load generator's, and other processes' (noise). */
  readonly serverCpuPercent: number;
  readonly generatorCpuPercent: number;
  readonly othersCpuPercent: number;
  /** Server CPU time per answered request: the cost of a request, little moved by other load on the machine. */
  readonly serverCpuMicrosPerRequest: number;
  /** Other processes used more than DISTURBED_PERCENT of a CPU meanwhile: the figures are not the machine's best. */
  readonly disturbed: boolean;
  /** On PostgreSQL: what its backends waited on, and its CPU use (not counted in othersCpuPercent). */
  readonly postgres?: PostgresActivity;
  /** With events to NATS, on creates: the probe's delays from 201 to stream, and the nats-server's CPU (not counted in othersCpuPercent). */
  readonly events?: EventDelays;
}

/** Other processes' CPU use, in % of one CPU, above which a measurement counts as disturbed. */
export const DISTURBED_PERCENT = 25;

export type Outcome = { readonly measured: Measurement } | { readonly skipped: string };

/** The figures of an outcome; absent when the server was skipped or not measured at all. */
export const measuredOf = (outcome: Outcome | undefined): Measurement | undefined =>
  outcome !== undefined && 'measured' in outcome ? outcome.measured : undefined;

export interface LoadSettings {
  readonly pets: number;
  readonly connections: number;
  readonly warmupSeconds: number;
  readonly durationSeconds: number;
  readonly generator: LoadGenerator;
}

export interface MeasureHooks {
  readonly log?: (line: string) => void;
}

export async function measure(
  scenario: Scenario,
  command: ServerCommand,
  settings: LoadSettings,
  hooks: MeasureHooks = {},
): Promise<Outcome> {
  const calm = await waitForQuiet(DISTURBED_PERCENT, 30_000);
  if (!calm.quiet) hooks.log?.(`  (other processes kept the machine busy for ${(calm.waitedMs / 1000).toFixed(0)} s; measuring anyway)`);
  const server = await startServer(command);
  const headers = command.headers ?? AUTH_HEADERS;
  try {
    const warmupShare = settings.warmupSeconds / (settings.warmupSeconds + settings.durationSeconds);
    const prepared = await scenario.prepare({ origin: server.origin, headers, pets: settings.pets, warmupShare });
    if ('skipped' in prepared) return prepared;
    const load = (seconds: number, requests = prepared.requests) =>
      settings.generator.run({
        origin: server.origin,
        requests,
        headers,
        expectedStatus: scenario.expectedStatus,
        connections: scenario.connections ?? settings.connections,
        seconds,
      });
    await load(settings.warmupSeconds, prepared.warmup);
    const rss = samplePeakRss(server.pid);
    const watch = command.postgresUrl === undefined ? undefined : await watchPostgres(command.postgresUrl);
    const probe =
      command.nats === undefined || scenario.kind !== 'create' ? undefined : await startEventProbe(server.origin, headers, command.nats);
    const cpu = measureCpuUse(server.pid);
    const result = await load(settings.durationSeconds);
    const cpuUse = cpu.stop(result.generatorCpuSeconds);
    const postgres = await watch?.stop();
    const events = await probe?.stop();
    const peak = await rss.stop();
    // PostgreSQL's and nats-server's own processes are part of the work measured, not a disturbance from outside.
    const othersPercent = Math.max(0, cpuUse.othersPercent - (postgres?.cpuPercent ?? 0) - (events?.natsCpuPercent ?? 0));
    return {
      measured: {
        requestsPerSecond: result.requestsPerSecond,
        p50Ms: result.p50Ms,
        p99Ms: result.p99Ms,
        peakRssMb: peak / (1024 * 1024),
        failures: result.failures,
        serverCpuPercent: cpuUse.serverPercent,
        generatorCpuPercent: cpuUse.generatorPercent,
        othersCpuPercent: othersPercent,
        serverCpuMicrosPerRequest: (cpuUse.serverPercent / 100) * (1e6 / result.requestsPerSecond),
        disturbed: othersPercent > DISTURBED_PERCENT,
        ...(postgres !== undefined && { postgres }),
        ...(events !== undefined && { events }),
      },
    };
  } finally {
    await server.stop();
  }
}
