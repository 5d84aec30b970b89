// The targets, and whether a scenario's medians meet them. On SQLite (issue 14), reads are held
// against the card floor (the least a Koa + @koa/router server doing the baseline's work can
// cost), create against the baseline, both at the same durability (synchronous = FULL). On
// PostgreSQL (issue 15), create is held against the PostgreSQL baseline; reads are reported, not judged.
// patch-status has no target: only the project can run it, and its speed is reported. The store
// (interface 1.3) has none of the references either: place-order is held against the project's own
// create in the same run, and the inventory to a ceiling on its median latency.
import { type Measurement, measuredOf, type Outcome } from '../harness/measure.js';
import type { ScenarioKind } from './scenarios.js';
import type { ComparedName, ServerName } from '../servers/servers.js';

export interface ThroughputTarget {
  readonly of: ComparedName;
  /** Least project/reference throughput ratio. */
  readonly least: number;
}

/** A target on the project's figures alone, for a scenario no reference runs. */
export type OwnTarget =
  /** Throughput at least `least` × the project's in scenario `of`, measured before it in the same run. */
  | { readonly ofScenario: string; readonly least: number }
  /** Median latency at most this many milliseconds. */
  | { readonly p50MsAtMost: number };

/** The store's targets, the same on SQLite and PostgreSQL (the inventory's is meant at 1,000,000 pets: --pets=1000000). */
export const STORE_TARGETS: Readonly<Record<string, OwnTarget>> = {
  'place-order': { ofScenario: 'create', least: 0.5 },
  inventory: { p50MsAtMost: 2 },
};

export interface Targets {
  /** Per scenario id, one target or several; a scenario without one is not judged on throughput. */
  readonly throughput: Readonly<Record<string, ThroughputTarget | readonly ThroughputTarget[]>>;
  /** Greatest project/reference p99 latency ratio, on every read scenario (none: reads are not judged on it). */
  readonly readP99?: { readonly of: ComparedName; readonly most: number };
  /** Greatest project RSS under load (none: not judged). */
  readonly rssMb?: number;
  /** Per scenario id, a target on the project's own figures; it replaces readP99 there (none: not judged so). */
  readonly own?: Readonly<Record<string, OwnTarget>>;
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
  own: STORE_TARGETS,
} as const;

/** On PostgreSQL (--db): creates against the PostgreSQL baseline, which lets PostgreSQL group-commit. */
export const POSTGRES_TARGETS: Targets = {
  throughput: { create: { of: 'baseline', least: 0.8 } },
  rssMb: TARGETS.rssMb,
  own: STORE_TARGETS,
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

/**
 * With --tracing: get by id with every request traced (OTEL_TRACES_SAMPLER=always_on) and its
 * spans exported over OTLP/HTTP, against the same with tracing off, the default, in the same rounds.
 */
export const TRACING_TARGET = { server: 'tracing', of: 'project', least: 0.75 } as const;

/** A variant of the project against the project itself, in the same rounds (--jwt, --tracing). */
export type VariantTarget = typeof JWT_TARGET | typeof TRACING_TARGET;

export interface Verdict {
  readonly met: boolean;
  /** Whether a throughput or latency target applies (else only the RSS and the failures are judged). */
  readonly speedJudged: boolean;
  /** What is missed, in a few words each ("throughput 0.62 < 0.80 × card-floor"). */
  readonly misses: readonly string[];
}

/** What `project` misses of `own`, given the project's figures in the scenario it names (`of`). */
function ownMisses(own: OwnTarget, project: Measurement, of: Measurement | undefined): string[] {
  if ('p50MsAtMost' in own) {
    return project.p50Ms <= own.p50MsAtMost ? [] : [`p50 ${project.p50Ms.toFixed(2)} ms > ${own.p50MsAtMost} ms`];
  }
  const ratio = project.requestsPerSecond / of!.requestsPerSecond;
  return ratio >= own.least ? [] : [`throughput ${ratio.toFixed(3)} < ${own.least.toFixed(2)} × the project's ${own.ofScenario}`];
}

/**
 * Absent when the project or a reference a target names was not measured, or the scenario an own
 * target names (`projectIn` gives the project's median in a scenario measured earlier).
 */
export function judge(
  id: string,
  kind: ScenarioKind,
  medians: Partial<Record<ServerName, Outcome>>,
  targets: Targets = TARGETS,
  projectIn: (scenario: string) => Outcome | undefined = () => undefined,
): Verdict | undefined {
  const project = measuredOf(medians.project);
  const throughputTargets = ([] as ThroughputTarget[]).concat(targets.throughput[id] ?? []);
  const own = targets.own?.[id];
  const readP99 = kind === 'read' && own === undefined ? targets.readP99 : undefined;
  const p99Of = readP99 === undefined ? undefined : measuredOf(medians[readP99.of]);
  const ownOf = own !== undefined && 'ofScenario' in own ? measuredOf(projectIn(own.ofScenario)) : undefined;
  const missing =
    throughputTargets.some(({ of }) => measuredOf(medians[of]) === undefined) ||
    (readP99 !== undefined && p99Of === undefined) ||
    (own !== undefined && 'ofScenario' in own && ownOf === undefined);
  if (project === undefined || missing) return undefined;

  const misses: string[] = own === undefined ? [] : ownMisses(own, project, ownOf);
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
  const speedJudged = throughputTargets.length > 0 || readP99 !== undefined || own !== undefined;
  return { met: misses.length === 0, speedJudged, misses };
}
