// The targets of issue 14, and whether a scenario's medians meet them. Reads are held against
// the card floor (the least a Koa + @koa/router server doing the baseline's work can cost),
// create against the baseline, both at the same SQLite durability (synchronous = FULL).
import { measuredOf, type Outcome } from './measure.js';
import type { ScenarioKind } from './scenarios.js';
import type { ReferenceName, ServerName } from './servers.js';

export interface ThroughputTarget {
  readonly of: ReferenceName;
  /** Least project/reference throughput ratio. */
  readonly least: number;
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
  readP99: { of: 'card-floor' as ReferenceName, most: 1.5 },
  /** Greatest project RSS under load. */
  rssMb: 150,
  /** Greatest cost ratio of a scenario at the large size against the small one. */
  scaleRatio: 1.5,
} as const;

export interface Verdict {
  readonly met: boolean;
  /** What is missed, in a few words each ("throughput 0.62 < 0.80 × card-floor"). */
  readonly misses: readonly string[];
}

/** Absent when the project or a reference a target names was not measured. */
export function judge(id: string, kind: ScenarioKind, medians: Partial<Record<ServerName, Outcome>>): Verdict | undefined {
  const project = measuredOf(medians.project);
  const throughputTarget = TARGETS.throughput[id];
  const throughputOf = throughputTarget === undefined ? undefined : measuredOf(medians[throughputTarget.of]);
  const p99Of = kind === 'read' ? measuredOf(medians[TARGETS.readP99.of]) : undefined;
  const missing = (throughputTarget !== undefined && throughputOf === undefined) || (kind === 'read' && p99Of === undefined);
  if (project === undefined || missing) return undefined;

  const misses: string[] = [];
  if (throughputTarget !== undefined && throughputOf !== undefined) {
    const ratio = project.requestsPerSecond / throughputOf.requestsPerSecond;
    const { least, of } = throughputTarget;
    if (!(ratio >= least)) misses.push(`throughput ${ratio.toFixed(3)} < ${least.toFixed(2)} × ${of}`);
  }
  if (p99Of !== undefined) {
    const ratio = project.p99Ms / p99Of.p99Ms;
    if (!(ratio <= TARGETS.readP99.most)) misses.push(`p99 ${ratio.toFixed(2)}× > ${TARGETS.readP99.most.toFixed(1)}× ${TARGETS.readP99.of}`);
  }
  if (!(project.peakRssMb < TARGETS.rssMb)) misses.push(`RSS ${project.peakRssMb.toFixed(0)} MB ≥ ${TARGETS.rssMb} MB`);
  const failing = Object.entries(medians).filter(([, outcome]) => (measuredOf(outcome)?.failures ?? 0) > 0).map(([name]) => name);
  if (failing.length > 0) misses.push(`failed requests (${failing.join(', ')})`);
  return { met: misses.length === 0, misses };
}
