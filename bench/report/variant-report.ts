// A variant of the project measured beside it in the same rounds (--jwt, --tracing): its
// throughput and CPU per request over the project's own, and whether it meets its target.
import { measuredOf } from '../harness/measure.js';
import type { ScenarioResult } from '../harness/run-scenarios.js';
import type { VariantTarget, Verdict } from '../scenarios/targets.js';
import type { Table } from './report.js';

/** How a variant is judged and named in its table. */
export interface VariantReport {
  readonly target: VariantTarget;
  /** What the table calls each side: the project's, then the variant's ("API key", "JWT"). */
  readonly sides: readonly [string, string];
  /** What the variant's run missed beyond the figures (none when absent). */
  readonly misses?: () => readonly string[];
}

export interface VariantVerdict extends Verdict {
  /** The variant's requests/s over the project's. */
  readonly ratio: number;
  /** The project's CPU per request over the variant's: the throughput ratio the cost alone would give. */
  readonly cpuRatio: number;
}

/** Absent when either side was not measured. */
export function variantVerdict(r: ScenarioResult, { target, sides, misses }: VariantReport): VariantVerdict | undefined {
  const variant = measuredOf(r.medians[target.server]);
  const project = measuredOf(r.medians[target.of]);
  if (variant === undefined || project === undefined) return undefined;
  const ratio = variant.requestsPerSecond / project.requestsPerSecond;
  const cpuRatio = project.serverCpuMicrosPerRequest / variant.serverCpuMicrosPerRequest;
  const found: string[] = [];
  if (!(ratio >= target.least)) found.push(`throughput ${ratio.toFixed(3)} < ${target.least.toFixed(2)} × ${sides[0]}`);
  if (variant.failures + project.failures > 0) found.push('failed requests');
  found.push(...(misses?.() ?? []));
  return { met: found.length === 0, speedJudged: true, misses: found, ratio, cpuRatio };
}

const ms = (value: number | undefined): string => (value === undefined ? '—' : value.toFixed(2));
const us = (value: number | undefined): string => (value === undefined ? '—' : value.toFixed(0));

/** One row per scenario the variant was measured in (get by id). */
export function variantTable(results: readonly ScenarioResult[], report: VariantReport): Table {
  const { target, sides } = report;
  const [own, other] = sides;
  return {
    header: [
      'scenario',
      `${own} req/s`,
      `${other} req/s`,
      `${other} ÷ ${own} (target ≥ ${target.least.toFixed(2)})`,
      `p99 ms ${own} / ${other}`,
      `µs CPU/request ${own} / ${other}`,
      `CPU/request ${own} ÷ ${other}`,
      'target met?',
    ],
    rows: results.flatMap((r) => {
      if (r.rounds[target.server] === undefined) return [];
      const variant = measuredOf(r.medians[target.server]);
      const project = measuredOf(r.medians[target.of]);
      const verdict = variantVerdict(r, report);
      return [
        [
          r.title,
          project?.requestsPerSecond.toFixed(0) ?? '—',
          variant?.requestsPerSecond.toFixed(0) ?? '—',
          verdict?.ratio.toFixed(2) ?? '—',
          `${ms(project?.p99Ms)} / ${ms(variant?.p99Ms)}`,
          `${us(project?.serverCpuMicrosPerRequest)} / ${us(variant?.serverCpuMicrosPerRequest)}`,
          verdict?.cpuRatio.toFixed(2) ?? '—',
          verdict === undefined ? '— (not judged: a side was not measured)' : verdict.met ? 'yes' : `no: ${verdict.misses.join(', ')}`,
        ],
      ];
    }),
  };
}

/** The variant's figures as the results file keeps them, beside the scenarios. */
export const variantSummary = (results: readonly ScenarioResult[], report: VariantReport) =>
  results.flatMap((r) => {
    const verdict = variantVerdict(r, report);
    if (verdict === undefined) return [];
    const { met, misses, ratio, cpuRatio } = verdict;
    return [{ scenario: r.id, target: report.target, ratio, cpuRatio, met, misses }];
  });
