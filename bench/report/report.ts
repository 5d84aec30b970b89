// The figures of a scenario run as tables (throughput, latency, cost), printed as text
// (stdout) or Markdown (results). Every figure is a median over the rounds; every ratio is the
// project's median over a reference's.
import { measuredOf, type Measurement, type Outcome } from '../harness/measure.js';
import type { ScenarioResult } from '../harness/run-scenarios.js';
import type { ScaleRow } from '../runs/scale-check.js';
import type { ComparedName, ServerName } from '../servers/servers.js';
import { TARGETS } from '../scenarios/targets.js';

export interface Table {
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

export const SERVER_TITLES: Readonly<Record<ServerName, string>> = {
  project: 'project',
  baseline: 'baseline',
  'koa-floor': 'Koa floor',
  'card-floor': 'card floor',
  'one-process': 'one process',
  'events-off': 'events off',
  jetstream: 'JetStream',
  earlier: 'earlier commit',
  jwt: 'JWT',
  tracing: 'tracing on',
};

const rate = (o: Outcome | undefined): string =>
  o !== undefined && 'skipped' in o ? 'skipped' : (measuredOf(o)?.requestsPerSecond.toFixed(0) ?? '—');
const latency = (o: Outcome | undefined): string => {
  const m = measuredOf(o);
  return m === undefined ? '—' : `${m.p50Ms.toFixed(2)} / ${m.p99Ms.toFixed(2)}`;
};

/** The project's `pick` over a reference's; absent when either was not measured. */
export function projectRatio(r: ScenarioResult, reference: ComparedName, pick: (m: Measurement) => number): number | undefined {
  const project = measuredOf(r.medians.project);
  const other = measuredOf(r.medians[reference]);
  return project === undefined || other === undefined ? undefined : pick(project) / pick(other);
}

const ratio = (r: ScenarioResult, reference: ComparedName, pick: (m: Measurement) => number, suffix = ''): string =>
  `${projectRatio(r, reference, pick)?.toFixed(2) ?? '—'}${suffix}`;

const disturbed = (...outcomes: (Outcome | undefined)[]): string =>
  outcomes.some((o) => measuredOf(o)?.disturbed) ? ' (disturbed by other processes)' : '';

const verdict = (r: ScenarioResult): string =>
  (r.verdict === undefined
    ? '— (not judged: a server it needs was not measured)'
    : r.verdict.met
      ? r.verdict.speedJudged
        ? 'yes'
        : 'no speed target (RSS, no failure: yes)'
      : `no: ${r.verdict.misses.join(', ')}`) + disturbed(...Object.values(r.medians));

/** Every server but the project: the references the tables divide the project's figures by, unless told fewer. */
export const comparedIn = (servers: readonly ServerName[]): ComparedName[] => servers.filter((s): s is ComparedName => s !== 'project');

/** Median requests/s of each server, the project's ratio to each reference (`references`), and the targets. */
export function throughputTable(
  results: readonly ScenarioResult[],
  servers: readonly ServerName[],
  references = comparedIn(servers),
): Table {
  return {
    header: [
      'scenario',
      ...servers.map((s) => `${SERVER_TITLES[s]} req/s`),
      ...references.map((s) => `÷ ${SERVER_TITLES[s]}`),
      'target met?',
    ],
    rows: results.map((r) => [
      r.title,
      ...servers.map((s) => rate(r.medians[s])),
      ...references.map((s) => ratio(r, s, (m) => m.requestsPerSecond)),
      verdict(r),
    ]),
  };
}

/** Median p50 / p99 of each server, the project's p99 ratio to each reference, and its peak RSS. */
export function latencyTable(results: readonly ScenarioResult[], servers: readonly ServerName[], references = comparedIn(servers)): Table {
  return {
    header: [
      'scenario',
      ...servers.map((s) => `${SERVER_TITLES[s]} p50 / p99 ms`),
      ...references.map((s) => `p99 ÷ ${SERVER_TITLES[s]}`),
      'project peak RSS MB',
    ],
    rows: results.map((r) => [
      r.title,
      ...servers.map((s) => latency(r.medians[s])),
      ...references.map((s) => ratio(r, s, (m) => m.p99Ms, '×')),
      measuredOf(r.medians.project)?.peakRssMb.toFixed(0) ?? '—',
    ]),
  };
}

/** Server CPU time per request: how much work each request costs, little moved by other load on the machine. */
export function costTable(results: readonly ScenarioResult[], servers: readonly ServerName[], references = comparedIn(servers)): Table {
  const percents = (r: ScenarioResult, pick: (m: Measurement) => number): string =>
    servers
      .map((s) => measuredOf(r.medians[s]))
      .map((m) => (m === undefined ? '—' : pick(m).toFixed(0)))
      .join(' / ');
  const order = servers.map((s) => SERVER_TITLES[s]).join(' / ');
  return {
    header: [
      'scenario',
      ...servers.map((s) => `${SERVER_TITLES[s]} CPU µs/request`),
      ...references.map((s) => `cost ÷ ${SERVER_TITLES[s]}`),
      `load generator % CPU (${order})`,
      `other processes % CPU (${order})`,
    ],
    rows: results.map((r) => [
      r.title,
      ...servers.map((s) => measuredOf(r.medians[s])?.serverCpuMicrosPerRequest.toFixed(0) ?? '—'),
      ...references.map((s) => ratio(r, s, (m) => m.serverCpuMicrosPerRequest)),
      percents(r, (m) => m.generatorCpuPercent),
      percents(r, (m) => m.othersCpuPercent),
    ]),
  };
}

const count = (n: number): string => n.toLocaleString('en-US');

export function scaleTable([small, large]: readonly [number, number], scale: readonly ScaleRow[]): Table {
  const p99 = (o: Outcome): string => measuredOf(o)?.p99Ms.toFixed(2) ?? '—';
  const cpu = (o: Outcome): string => measuredOf(o)?.serverCpuMicrosPerRequest.toFixed(0) ?? '—';
  return {
    header: [
      'scenario',
      'server',
      `req/s at ${count(small)}`,
      `req/s at ${count(large)}`,
      `throughput ratio (≤ ${TARGETS.scaleRatio})`,
      'CPU µs/request small / large',
      `CPU ratio (≤ ${TARGETS.scaleRatio})`,
      'p99 ms small / large',
      'target met?',
    ],
    rows: scale.map((r) => [
      r.scenario,
      r.server,
      rate(r.small),
      rate(r.large),
      r.throughputRatio?.toFixed(2) ?? '—',
      `${cpu(r.small)} / ${cpu(r.large)}`,
      r.cpuRatio?.toFixed(2) ?? '—',
      `${p99(r.small)} / ${p99(r.large)}`,
      (r.met === undefined ? '—' : r.met ? 'yes' : 'no') + disturbed(r.small, r.large),
    ]),
  };
}

/** A fixed-width table for the terminal. */
export function textTable({ header, rows }: Table): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join(' | ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.map(line)].join('\n');
}

export function markdownTable({ header, rows }: Table): string {
  const line = (cells: readonly string[]): string => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(header), `|${header.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}
