// What PostgreSQL's backends wait on while a server is measured: a separate connection reads
// pg_stat_activity every ~20 ms. Backends waiting on Lock:advisory queue behind an advisory
// lock (the project's insert-order lock); IO:WALSync, IO:WALWrite or LWLock:WALWrite mean
// commits waiting for the WAL flush, which concurrent commits share (group commit).
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { processTree, treeTicks } from './cpu-use.js';

const EVERY_MS = 20;
const TICKS_PER_SECOND = 100; // USER_HZ, fixed at 100 on Linux

const SAMPLE_SQL = `SELECT pid, state, wait_event_type, wait_event FROM pg_stat_activity
  WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`;

interface BackendRow {
  readonly state: string | null;
  readonly wait_event_type: string | null;
  readonly wait_event: string | null;
}

/** The samples of one measurement, or several pooled (shares and means weighted by their samples). */
export interface PostgresActivity {
  readonly samples: number;
  /** Share of samples in which at least one backend waited on Lock:advisory. */
  readonly advisoryWaitShare: number;
  /** Backends waiting on Lock:advisory, on average over the samples. */
  readonly meanAdvisoryWaiters: number;
  /** Share of samples in which at least one backend waited on IO:WALSync, IO:WALWrite or LWLock:WALWrite. */
  readonly walWaitShare: number;
  /** Backends in state `active`, on average: how many of the pool's connections had a statement in PostgreSQL. */
  readonly meanActiveBackends: number;
  /** CPU use of every PostgreSQL process in % of one CPU (unknown when the server is not on this machine). */
  readonly cpuPercent?: number;
}

const isAdvisoryWait = (r: BackendRow): boolean => r.wait_event_type === 'Lock' && r.wait_event === 'advisory';
const isWalWait = (r: BackendRow): boolean =>
  (r.wait_event_type === 'IO' && (r.wait_event === 'WALSync' || r.wait_event === 'WALWrite')) ||
  (r.wait_event_type === 'LWLock' && r.wait_event === 'WALWrite');

/** The postmaster: the parent of our own backend, when PostgreSQL runs on this machine and /proc shows it. */
function postmasterPid(backendPid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${backendPid}/stat`, 'utf8');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return readFileSync(`/proc/${parent}/comm`, 'utf8').trim().startsWith('postgres') ? parent : undefined;
  } catch {
    return undefined;
  }
}

/** Starts sampling the database `url` names; stop() answers what was seen from now on. */
export async function watchPostgres(url: string): Promise<{ stop(): Promise<PostgresActivity> }> {
  const client = new pg.Client({ connectionString: url, application_name: 'petstore-bench-sampler' });
  await client.connect();
  const own = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  const postmaster = postmasterPid(own);
  const ticksAtStart = new Map((postmaster === undefined ? [] : processTree(postmaster)).map((pid) => [pid, treeTicks([pid])]));
  const started = performance.now();
  let samples = 0;
  let withAdvisory = 0;
  let advisoryWaiters = 0;
  let withWal = 0;
  let active = 0;
  let stopping = false;
  const loop = (async () => {
    while (!stopping) {
      const next = performance.now() + EVERY_MS;
      const { rows } = await client.query<BackendRow>({ name: 'bench_activity', text: SAMPLE_SQL });
      samples++;
      const advisory = rows.filter(isAdvisoryWait).length;
      advisoryWaiters += advisory;
      if (advisory > 0) withAdvisory++;
      if (rows.some(isWalWait)) withWal++;
      active += rows.filter((r) => r.state === 'active').length;
      const wait = next - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  })();
  return {
    stop: async () => {
      stopping = true;
      await loop.finally(() => client.end());
      const seconds = (performance.now() - started) / 1000;
      // Backends that began meanwhile count from 0; those that ended took their ticks with them.
      const ticks =
        postmaster === undefined
          ? undefined
          : processTree(postmaster).reduce((sum, pid) => sum + treeTicks([pid]) - (ticksAtStart.get(pid) ?? 0), 0);
      const per = (n: number): number => (samples === 0 ? 0 : n / samples);
      return {
        samples,
        advisoryWaitShare: per(withAdvisory),
        meanAdvisoryWaiters: per(advisoryWaiters),
        walWaitShare: per(withWal),
        meanActiveBackends: per(active),
        ...(ticks !== undefined && { cpuPercent: (100 * ticks) / TICKS_PER_SECOND / seconds }),
      };
    },
  };
}

/** Several measurements' activity as one: shares and means weighted by their samples, the CPU use their median. */
export function pooledActivity(each: readonly PostgresActivity[]): PostgresActivity | undefined {
  if (each.length === 0) return undefined;
  const samples = each.reduce((n, a) => n + a.samples, 0);
  const weighted = (pick: (a: PostgresActivity) => number): number =>
    samples === 0 ? 0 : each.reduce((sum, a) => sum + pick(a) * a.samples, 0) / samples;
  const cpus = each.flatMap((a) => (a.cpuPercent === undefined ? [] : [a.cpuPercent])).sort((a, b) => a - b);
  const middle = Math.floor(cpus.length / 2);
  return {
    samples,
    advisoryWaitShare: weighted((a) => a.advisoryWaitShare),
    meanAdvisoryWaiters: weighted((a) => a.meanAdvisoryWaiters),
    walWaitShare: weighted((a) => a.walWaitShare),
    meanActiveBackends: weighted((a) => a.meanActiveBackends),
    ...(cpus.length > 0 && { cpuPercent: cpus.length % 2 === 1 ? cpus[middle]! : (cpus[middle - 1]! + cpus[middle]!) / 2 }),
  };
}

const percent = (share: number): string => `${(100 * share).toFixed(0)}%`;

/** One line for the log of a round. */
export const describeActivity = (a: PostgresActivity): string =>
  `PostgreSQL: ${a.samples} samples, Lock:advisory waits in ${percent(a.advisoryWaitShare)} (mean ${a.meanAdvisoryWaiters.toFixed(1)} waiting), ` +
  `WAL waits in ${percent(a.walWaitShare)}, ${a.meanActiveBackends.toFixed(1)} active backends, CPU ${a.cpuPercent === undefined ? 'unknown' : `${a.cpuPercent.toFixed(0)}%`}`;
