// The figures of a scenario run as rows, printed as a text table (stdout) or a Markdown table (docs).
import type { Outcome } from './measure.js';
import type { ScenarioResult } from './run-scenarios.js';
import type { ScaleRow } from './scale-check.js';
import { TARGETS } from './targets.js';

export const COLUMNS = [
  'scenario',
  'project req/s',
  'baseline req/s',
  'ratio',
  'project p50/p99 ms',
  'baseline p50/p99 ms',
  'p99 ratio',
  'project peak RSS MB',
  'target met?',
] as const;

const rate = (o: Outcome): string => ('skipped' in o ? 'skipped' : o.measured.requestsPerSecond.toFixed(0));
const latency = (o: Outcome): string =>
  'skipped' in o ? '—' : `${o.measured.p50Ms.toFixed(2)} / ${o.measured.p99Ms.toFixed(2)}`;
const rss = (o: Outcome): string => ('skipped' in o ? '—' : o.measured.peakRssMb.toFixed(0));

function ratios(r: ScenarioResult): [string, string] {
  if (!('measured' in r.project) || !('measured' in r.baseline)) return ['—', '—'];
  const p = r.project.measured;
  const b = r.baseline.measured;
  return [(p.requestsPerSecond / b.requestsPerSecond).toFixed(2), `${(p.p99Ms / b.p99Ms).toFixed(2)}×`];
}

const disturbed = (...outcomes: Outcome[]): string =>
  outcomes.some((o) => 'measured' in o && o.measured.disturbed) ? ' (disturbed by other processes)' : '';

const verdict = (r: ScenarioResult): string =>
  (r.verdict === undefined
    ? `— (project ${'skipped' in r.project ? r.project.skipped : 'measured'})`
    : r.verdict.met
      ? 'yes'
      : `no: ${r.verdict.misses.join(', ')}`) + disturbed(r.project, r.baseline);

export function rows(results: readonly ScenarioResult[]): string[][] {
  return results.map((r) => {
    const [throughput, p99] = ratios(r);
    return [r.title, rate(r.project), rate(r.baseline), throughput, latency(r.project), latency(r.baseline), p99, rss(r.project), verdict(r)];
  });
}

export const COST_COLUMNS = [
  'scenario',
  'project CPU µs/request',
  'baseline CPU µs/request',
  'cost ratio',
  'other processes % CPU (project / baseline run)',
] as const;

/** Server CPU time per request: how much work each request costs, little moved by other load on the machine. */
export function costRows(results: readonly ScenarioResult[]): string[][] {
  const micros = (o: Outcome): string => ('skipped' in o ? '—' : o.measured.serverCpuMicrosPerRequest.toFixed(0));
  const others = (o: Outcome): string => ('skipped' in o ? '—' : o.measured.othersCpuPercent.toFixed(0));
  return results.map((r) => [
    r.title,
    micros(r.project),
    micros(r.baseline),
    'measured' in r.project && 'measured' in r.baseline
      ? (r.project.measured.serverCpuMicrosPerRequest / r.baseline.measured.serverCpuMicrosPerRequest).toFixed(2)
      : '—',
    `${others(r.project)} / ${others(r.baseline)}`,
  ]);
}

const count = (n: number): string => n.toLocaleString('en-US');

export const scaleColumns = ([small, large]: readonly [number, number]): string[] => [
  'scenario',
  'server',
  `req/s at ${count(small)}`,
  `req/s at ${count(large)}`,
  `throughput ratio (≤ ${TARGETS.scaleRatio})`,
  'CPU µs/request small / large',
  `CPU ratio (≤ ${TARGETS.scaleRatio})`,
  'p99 ms small / large',
  'target met?',
];

export function scaleRows(scale: readonly ScaleRow[]): string[][] {
  const p99 = (o: Outcome): string => ('skipped' in o ? '—' : o.measured.p99Ms.toFixed(2));
  const cpu = (o: Outcome): string => ('skipped' in o ? '—' : o.measured.serverCpuMicrosPerRequest.toFixed(0));
  return scale.map((r) => [
    r.scenario,
    r.server,
    rate(r.small),
    rate(r.large),
    r.throughputRatio?.toFixed(2) ?? '—',
    `${cpu(r.small)} / ${cpu(r.large)}`,
    r.cpuRatio?.toFixed(2) ?? '—',
    `${p99(r.small)} / ${p99(r.large)}`,
    (r.met === undefined ? (r.scenario === 'deep-page' ? 'deep page: pending cursor paging' : '—') : r.met ? 'yes' : 'no') +
      disturbed(r.small, r.large),
  ]);
}

/** A fixed-width table for the terminal. */
export function textTable(header: readonly string[], body: readonly string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...body.map(line)].join('\n');
}

export function markdownTable(header: readonly string[], body: readonly string[][]): string {
  const line = (cells: readonly string[]): string => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(header), `|${header.map(() => '---').join('|')}|`, ...body.map(line)].join('\n');
}
