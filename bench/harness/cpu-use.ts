// Where the machine's CPU time went during a measurement: the server, the load generator (wrk,
// or this process with autocannon), the bench itself, and everything else. "Everything else"
// tells a measurement disturbed by other work on a shared machine from a clean one.
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ, fixed at 100 on Linux

/** Busy ticks of all CPUs together (every field of the "cpu" line but idle and iowait). */
export function machineBusyTicks(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is already counted in user)
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
  return user + nice + system + irq + softirq + steal;
}

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces), from field 3 on. */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** `pid` and its children: a PETSTORE_WORKERS primary and its workers. */
export function processTree(pid: number): number[] {
  const children = readdirSync('/proc').flatMap((entry) => {
    if (!/^[0-9]+$/.test(entry)) return [];
    try {
      return Number(statFields(Number(entry))[1]) === pid ? [Number(entry)] : [];
    } catch {
      return []; // gone meanwhile
    }
  });
  return [pid, ...children];
}

/** utime + stime of a process, in ticks. */
function processTicks(pid: number): number {
  const fields = statFields(pid);
  return Number(fields[11]) + Number(fields[12]);
}

/** utime + stime of `pids`, in ticks; a process gone meanwhile counts as 0. */
export const treeTicks = (pids: readonly number[]): number =>
  pids.reduce((sum, pid) => {
    try {
      return sum + processTicks(pid);
    } catch {
      return sum;
    }
  }, 0);

/** utime + stime of every process whose command is `name` (PostgreSQL's: `postgres`), in ticks. */
export function commandTicks(name: string): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) ticks += processTicks(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return ticks;
}

export interface CpuUse {
  /** In % of one CPU. */
  readonly serverPercent: number;
  readonly generatorPercent: number;
  readonly othersPercent: number;
}

/**
 * CPU use from now until stop(); the server's is that of `serverPid` and its children (the
 * workers, if any). stop() is told the CPU time of a load generator that ran in a process of
 * its own (wrk), which has exited by then; without it, the generator is this process (autocannon).
 */
export function measureCpuUse(serverPid: number): { stop(separateGeneratorSeconds?: number): CpuUse } {
  // The workers are up before a measurement starts (warm-up has run): the tree is taken once.
  const tree = processTree(serverPid);
  const started = performance.now();
  const machine = machineBusyTicks();
  const server = treeTicks(tree);
  const own = process.cpuUsage();
  return {
    stop: (separateGeneratorSeconds) => {
      const seconds = (performance.now() - started) / 1000;
      const machineSeconds = (machineBusyTicks() - machine) / TICKS_PER_SECOND;
      const serverSeconds = (treeTicks(tree) - server) / TICKS_PER_SECOND;
      const used = process.cpuUsage(own);
      const ownSeconds = (used.user + used.system) / 1e6;
      const percent = (s: number): number => (100 * s) / seconds;
      return {
        serverPercent: percent(serverSeconds),
        generatorPercent: percent(separateGeneratorSeconds ?? ownSeconds),
        othersPercent: percent(Math.max(0, machineSeconds - serverSeconds - ownSeconds - (separateGeneratorSeconds ?? 0))),
      };
    },
  };
}

/** CPU use of every other process over the next `ms`, in % of one CPU. */
async function othersPercentOver(ms: number): Promise<number> {
  const machine = machineBusyTicks();
  const own = process.cpuUsage();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(own);
  const others = (machineBusyTicks() - machine) / TICKS_PER_SECOND - (used.user + used.system) / 1e6;
  return (100 * Math.max(0, others)) / seconds;
}

/**
 * Waits, up to `maxMs`, for a second in which other processes use less than `thresholdPercent`
 * of one CPU, so that a measurement does not start in the middle of someone else's work.
 * Answers how long it waited, and whether the machine did become quiet.
 */
export async function waitForQuiet(thresholdPercent = 25, maxMs = 15_000): Promise<{ waitedMs: number; quiet: boolean }> {
  const started = performance.now();
  for (;;) {
    const others = await othersPercentOver(1000);
    const waitedMs = performance.now() - started;
    if (others < thresholdPercent) return { waitedMs, quiet: true };
    if (waitedMs >= maxMs) return { waitedMs, quiet: false };
  }
}
