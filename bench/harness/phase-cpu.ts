// Where the machine's CPU went during a phase of an --outage run: the project server, nats-server,
// PostgreSQL (every `postgres` process), the bench's own process (the load, the endpoint), and
// everything else: other users' work, which marks the phase disturbed above DISTURBED_PERCENT.
import { commandTicks, machineBusyTicks, processTree, treeTicks } from './cpu-use.js';
import { DISTURBED_PERCENT } from './measure.js';

const TICKS_PER_SECOND = 100; // USER_HZ, fixed at 100 on Linux

/** In % of one CPU, over the phase. */
export interface PhaseCpu {
  readonly serverPercent: number;
  readonly natsPercent: number;
  readonly postgresPercent: number;
  readonly benchPercent: number;
  readonly othersPercent: number;
  readonly disturbed: boolean;
}

/** From now until stop(); `natsTicks` counts every nats-server process of the phase, one killed meanwhile included. */
export function measurePhaseCpu(serverPid: number, natsTicks: () => number): { stop(): PhaseCpu } {
  const tree = processTree(serverPid);
  const read = () => ({
    machine: machineBusyTicks(),
    server: treeTicks(tree),
    nats: natsTicks(),
    postgres: commandTicks('postgres'),
    at: performance.now(),
  });
  const start = read();
  const own = process.cpuUsage();
  return {
    stop: () => {
      const end = read();
      const seconds = (end.at - start.at) / 1000;
      const percent = (ticks: number): number => (100 * ticks) / TICKS_PER_SECOND / seconds;
      const used = process.cpuUsage(own);
      const benchPercent = (100 * (used.user + used.system)) / 1e6 / seconds;
      const [machine, serverPercent, natsPercent, postgresPercent] = (['machine', 'server', 'nats', 'postgres'] as const).map((k) =>
        percent(end[k] - start[k]),
      ) as [number, number, number, number];
      const othersPercent = Math.max(0, machine - serverPercent - natsPercent - postgresPercent - benchPercent);
      return { serverPercent, natsPercent, postgresPercent, benchPercent, othersPercent, disturbed: othersPercent > DISTURBED_PERCENT };
    },
  };
}
