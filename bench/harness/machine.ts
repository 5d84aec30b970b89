// The machine a run was measured on, recorded beside its figures.
import { readFileSync } from 'node:fs';
import { availableParallelism, release, totalmem } from 'node:os';

export interface Machine {
  readonly cpus: number;
  readonly cpuModel: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly kernel: string;
  /**
   * How an idle CPU waits (Linux cpuidle): on this project's virtual machines, the haltpoll
   * governor with guest halt-polling off, so that a response waking an idle wrk costs the server
   * a trip to the hypervisor (docs/performance.md).
   */
  readonly cpuIdle: string;
}

/** A file's text without its surrounding white space, or undefined where it cannot be read. */
const fileText = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
};

const cpuModel = (): string => /^model name\s*:\s*(.+)$/m.exec(fileText('/proc/cpuinfo') ?? '')?.[1]?.trim() ?? 'unknown';

function cpuIdle(): string {
  const governor =
    fileText('/sys/devices/system/cpu/cpuidle/current_governor') ?? fileText('/sys/devices/system/cpu/cpuidle/current_governor_ro');
  if (governor === undefined) return 'unknown';
  const haltPoll = fileText('/sys/module/haltpoll/parameters/guest_halt_poll_ns');
  return haltPoll === undefined ? governor : `${governor}, guest_halt_poll_ns ${haltPoll}`;
}

export const describeMachine = (): Machine => ({
  cpus: availableParallelism(),
  cpuModel: cpuModel(),
  memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
  node: process.version,
  kernel: `Linux ${release()}`,
  cpuIdle: cpuIdle(),
});

export const machineLine = (m: Machine): string =>
  `${m.cpus} CPUs (${m.cpuModel}), ${m.memoryGiB} GiB, Node ${m.node}, ${m.kernel}, CPU idle: ${m.cpuIdle}`;
