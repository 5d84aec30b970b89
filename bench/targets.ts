// The targets of issue 7, and whether a scenario's figures meet them.
import type { Measurement } from './measure.js';
import type { ScenarioKind } from './scenarios.js';

export const TARGETS = {
  /** Least project/baseline throughput ratio, per kind of scenario. */
  throughputRatio: { read: 0.8, create: 0.7 } as Readonly<Record<ScenarioKind, number>>,
  /** Greatest project/baseline p99 latency ratio. */
  p99Ratio: 1.5,
  /** Greatest project RSS under load. */
  rssMb: 150,
  /** Greatest cost ratio of a scenario at the large size against the small one. */
  scaleRatio: 1.5,
} as const;

export interface Verdict {
  readonly met: boolean;
  /** What is missed, in a few words each ("throughput 0.62 < 0.80"). */
  readonly misses: readonly string[];
}

export function judge(kind: ScenarioKind, project: Measurement, baseline: Measurement): Verdict {
  const misses: string[] = [];
  const throughput = project.requestsPerSecond / baseline.requestsPerSecond;
  const least = TARGETS.throughputRatio[kind];
  if (!(throughput >= least)) misses.push(`throughput ${throughput.toFixed(3)} < ${least.toFixed(2)}`);
  const p99 = project.p99Ms / baseline.p99Ms;
  if (!(p99 <= TARGETS.p99Ratio)) misses.push(`p99 ${p99.toFixed(2)}× > ${TARGETS.p99Ratio.toFixed(1)}×`);
  if (!(project.peakRssMb < TARGETS.rssMb)) misses.push(`RSS ${project.peakRssMb.toFixed(0)} MB ≥ ${TARGETS.rssMb} MB`);
  if (project.failures > 0 || baseline.failures > 0) misses.push('failed requests');
  return { met: misses.length === 0, misses };
}
