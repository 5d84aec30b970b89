// The targets, and whether a scenario's medians meet them. On SQLite (issue 14), reads are held
// against the card floor (the least a Koa + @koa/router server doing the baseline's work can
// cost), create against the baseline, both at the same durability (synchronous = FULL). On
// PostgreSQL (issue 15), create is held against the PostgreSQL baseline; reads are reported, not judged.
// patch-status has no target: only the project can run it, and its speed is reported.
import { measuredOf, type Outcome } from '../harness/measure.js';
import type { ScenarioKind } from './scenarios.js';
import type { ComparedName, ServerName } from '../servers/servers.js';

export interface ThroughputTarget {
  readonly of: ComparedName;
  /** Least project/reference throughput ratio. */
  readonly least: number;
}

export interface Targets {
  /** Per scenario id, one target or several; a scenario without one is not judged on throughput. */
  readonly throughput: Readonly<Record<string, ThroughputTarget | readonly ThroughputTarget[]>>;
  /** Greatest project/reference p99 latency ratio, on every read scenario (none: reads are not judged on it). */
  readonly readP99?: { readonly of: ComparedName; readonly most: number };
  /** Greatest project RSS under load (none: not judged). */
  readonly rssMb?: number;
}

export const TARGETS = {
  /** Per scenario id. */
  throughput: {
    'list-20': { of: 'card-floor', least: 0.8 },
    'status-sold-100': { of: 'card-floor', least: 0.85 },
    'deep-page': { of: 'card-floor', least: 0.85 },
    'get-by-id': { of: 'card-floor', least: 0.65 },
    create: { of: 'baseline', least: 0.85 },
  } as Readonly<Record<string, ThroughputTarget>>,
  /** Greatest project/reference p99 latency ratio, on every read scenario. */
  readP99: { of: 'card-floor' as ComparedName, most: 1.5 },
  /** Greatest project RSS under load. */
  rssMb: 150,
  /** Greatest cost ratio of a scenario at the large size against the small one. */
  scaleRatio: 1.5,
} as const;

/** On PostgreSQL (--db): creates against the PostgreSQL baseline, which lets PostgreSQL group-commit. */
export const POSTGRES_TARGETS: Targets = {
  throughput: { create: { of: 'baseline', least: 0.8 } },
  rssMb: TARGETS.rssMb,
};

/**
 * On PostgreSQL with --workers=N: creates as above, and at least as many as the project with one
 * process makes in the same rounds (issue 15: added workers must not make the fleet slower).
 */
export const POSTGRES_WORKERS_TARGETS: Targets = {
  throughput: {
    create: [
      { of: 'baseline', least: 0.8 },
      { of: 'one-process', least: 1.0 },
    ],
  },
};

/**
 * With --events: the creates of the project whose events are relayed to NATS JetStream, against
 * the project's with no events at all (PETSTORE_EVENTS=off), in the same rounds.
 */
export const EVENTS_TARGET = { server: 'jetstream', of: 'events-off', least: 0.85 } as const satisfies ThroughputTarget & {
  server: ServerName;
};

/**
 * With --jwt: get by id with a JWT access token (its signature verified once, then taken from
 * the verified tokens) against the same with an API key, the project's default, in the same rounds.
 */
export const JWT_TARGET = { server: 'jwt', of: 'project', least: 0.9 } as const;

export interface Verdict {
  readonly met: boolean;
  /** Whether a throughput or latency target applies (else only the RSS and the failures are judged). */
  readonly speedJudged: boolean;
  /** What is missed, in a few words each ("throughput 0.62 < 0.80 × card-floor"). */
  readonly misses: readonly string[];
}

/** Absent when the project or a reference a target names was not measured. */
export function judge(
  id: string,
  kind: ScenarioKind,
  medians: Partial<Record<ServerName, Outcome>>,
  targets: Targets = TARGETS,
): Verdict | undefined {
  const project = measuredOf(medians.project);
  const throughputTargets = ([] as ThroughputTarget[]).concat(targets.throughput[id] ?? []);
  const readP99 = kind === 'read' ? targets.readP99 : undefined;
  const p99Of = readP99 === undefined ? undefined : measuredOf(medians[readP99.of]);
  const missing =
    throughputTargets.some(({ of }) => measuredOf(medians[of]) === undefined) || (readP99 !== undefined && p99Of === undefined);
  if (project === undefined || missing) return undefined;

  const misses: string[] = [];
  for (const { of, least } of throughputTargets) {
    const ratio = project.requestsPerSecond / measuredOf(medians[of])!.requestsPerSecond;
    if (!(ratio >= least)) misses.push(`throughput ${ratio.toFixed(3)} < ${least.toFixed(2)} × ${of}`);
  }
  if (readP99 !== undefined && p99Of !== undefined) {
    const ratio = project.p99Ms / p99Of.p99Ms;
    if (!(ratio <= readP99.most)) misses.push(`p99 ${ratio.toFixed(2)}× > ${readP99.most.toFixed(1)}× ${readP99.of}`);
  }
  const { rssMb } = targets;
  if (rssMb !== undefined && !(project.peakRssMb < rssMb)) misses.push(`RSS ${project.peakRssMb.toFixed(0)} MB ≥ ${rssMb} MB`);
  const failing = Object.entries(medians)
    .filter(([, outcome]) => (measuredOf(outcome)?.failures ?? 0) > 0)
    .map(([name]) => name);
  if (failing.length > 0) misses.push(`failed requests (${failing.join(', ')})`);
  return { met: misses.length === 0, speedJudged: throughputTargets.length > 0 || readP99 !== undefined, misses };
}
