// What PostgreSQL's backends waited on while each server was measured (harness/postgres-activity.ts),
// as a table beside the throughput, latency and cost tables of a --db run.
import { measuredOf } from '../harness/measure.js';
import type { Table } from './report.js';
import { SERVER_TITLES } from './report.js';
import type { ScenarioResult } from '../harness/run-scenarios.js';
import type { ServerName } from '../servers/servers.js';

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
