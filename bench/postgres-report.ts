// What PostgreSQL's backends waited on while each server was measured (postgres-activity.ts),
// as a table beside the throughput, latency and cost tables of a --db run.
import { measuredOf } from './measure.js';
import type { Table } from './report.js';
import { SERVER_TITLES } from './report.js';
import type { ScenarioResult } from './run-scenarios.js';
import type { ServerName } from './servers.js';

const percent = (share: number): string => `${(100 * share).toFixed(0)} %`;

/** One row per scenario and server: the pooled samples of its undisturbed rounds (as its medians). */
export function postgresActivityTable(results: readonly ScenarioResult[], servers: readonly ServerName[]): Table {
  return {
    header: [
      'scenario',
      'server',
      'samples',
      'samples with a Lock:advisory wait',
      'mean backends waiting on Lock:advisory',
      'samples with a WAL wait (IO:WALSync, IO:WALWrite, LWLock:WALWrite)',
      'mean active backends',
      'PostgreSQL % CPU',
      'server % CPU',
    ],
    rows: results.flatMap((r) =>
      servers.map((s) => {
        const m = measuredOf(r.medians[s]);
        const a = m?.postgres;
        if (m === undefined || a === undefined) return [r.title, SERVER_TITLES[s], '—', '—', '—', '—', '—', '—', '—'];
        return [
          r.title,
          SERVER_TITLES[s],
          String(a.samples),
          percent(a.advisoryWaitShare),
          a.meanAdvisoryWaiters.toFixed(2),
          percent(a.walWaitShare),
          a.meanActiveBackends.toFixed(2),
          a.cpuPercent?.toFixed(0) ?? 'unknown',
          m.serverCpuPercent.toFixed(0),
        ];
      }),
    ),
  };
}

/** A server in N processes and the same server in one, measured in the same rounds (--workers=N). */
const SCALING_PAIRS: readonly { readonly many: ServerName; readonly one: ServerName; readonly title: string }[] = [
  { many: 'project', one: 'one-process', title: 'project' },
  { many: 'group-commit-floor-workers', one: 'group-commit-floor', title: 'group-commit floor' },
  { many: 'baseline-workers', one: 'baseline', title: 'baseline' },
];

/**
 * What N processes make against one, per scenario, for each server measured both ways: the
 * project beside the floor of its design and beside the baseline, so that what this machine
 * lets a second process add is seen apart from what the project does with it.
 */
export function workersTable(results: readonly ScenarioResult[], servers: readonly ServerName[], workers: number): Table {
  const pairs = SCALING_PAIRS.filter(({ many, one }) => servers.includes(many) && servers.includes(one));
  const rps = (r: ScenarioResult, s: ServerName): number | undefined => measuredOf(r.medians[s])?.requestsPerSecond;
  const cpu = (r: ScenarioResult, s: ServerName): string => measuredOf(r.medians[s])?.serverCpuMicrosPerRequest.toFixed(0) ?? '—';
  const byRound = (r: ScenarioResult, many: ServerName, one: ServerName): string =>
    (r.rounds[many] ?? [])
      .map((outcome, i) => {
        const a = measuredOf(outcome)?.requestsPerSecond;
        const b = measuredOf(r.rounds[one]?.[i])?.requestsPerSecond;
        return a === undefined || b === undefined ? '—' : (a / b).toFixed(2);
      })
      .join(', ');
  return {
    header: [
      'scenario',
      'server',
      `${workers} processes req/s`,
      'one process req/s',
      `${workers} processes ÷ one`,
      'by round',
      `CPU µs/request (${workers} processes / one)`,
    ],
    rows: results.flatMap((r) =>
      pairs.map(({ many, one, title }) => {
        const [a, b] = [rps(r, many), rps(r, one)];
        return [
          r.title,
          title,
          a?.toFixed(0) ?? '—',
          b?.toFixed(0) ?? '—',
          a === undefined || b === undefined ? '—' : (a / b).toFixed(2),
          byRound(r, many, one),
          `${cpu(r, many)} / ${cpu(r, one)}`,
        ];
      }),
    ),
  };
}
