// One scenario on both servers in alternating rounds, measured again when other processes
// disturbed it, and the best undisturbed figures of each side kept.
import { measure, type LoadSettings, type Measurement, type Outcome } from './measure.js';
import type { Scenario } from './scenarios.js';
import type { ServerCommand } from './server-process.js';
import type { ServerName } from './servers.js';

/** Rounds added, at most, for a side that has no undisturbed measurement yet. */
const EXTRA_ROUNDS = 3;

export interface RoundSettings extends LoadSettings {
  readonly rounds: number;
}

const describe = (outcome: Outcome): string => {
  if ('skipped' in outcome) return `skipped (${outcome.skipped})`;
  const m = outcome.measured;
  return (
    `${m.requestsPerSecond.toFixed(0).padStart(6)} req/s, p99 ${m.p99Ms.toFixed(2).padStart(6)} ms, ` +
    `server CPU ${m.serverCpuPercent.toFixed(0)}% (${m.serverCpuMicrosPerRequest.toFixed(0)} µs/request), RSS ${m.peakRssMb.toFixed(0)} MB, ` +
    `load generator ${m.generatorCpuPercent.toFixed(0)}%, other processes ${m.othersCpuPercent.toFixed(0)}%${m.disturbed ? ' (disturbed)' : ''}` +
    (m.failures > 0 ? `, ${m.failures} FAILED requests` : '')
  );
};

/**
 * The best of several rounds: the undisturbed one with the highest throughput (other work on
 * the machine can only slow a round down), or the best disturbed one when no round was clean.
 * The peak RSS and the failures are those of every round.
 */
export function bestOf(outcomes: readonly Outcome[]): Outcome {
  const measured = outcomes.flatMap((o) => ('measured' in o ? [o.measured] : []));
  if (measured.length === 0) return outcomes[0]!;
  const clean = measured.filter((m) => !m.disturbed);
  const best = (clean.length > 0 ? clean : measured).reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
  const highest = (pick: (m: Measurement) => number): number => Math.max(...measured.map(pick));
  return { measured: { ...best, peakRssMb: highest((m) => m.peakRssMb), failures: measured.reduce((n, m) => n + m.failures, 0) } };
}

const needsAnother = (outcomes: readonly Outcome[]): boolean =>
  outcomes.some((o) => 'measured' in o) && !outcomes.some((o) => 'measured' in o && !o.measured.disturbed);

export async function measureInRounds(
  scenario: Scenario,
  commands: Readonly<Record<ServerName, ServerCommand>>,
  settings: RoundSettings,
  log: (line: string) => void,
  label = scenario.id,
): Promise<Record<ServerName, Outcome>> {
  const outcomes: Record<ServerName, Outcome[]> = { project: [], baseline: [] };
  // The servers alternate, back to back, so that a drift of the machine weighs on both alike.
  for (let round = 1; round <= settings.rounds + EXTRA_ROUNDS; round++) {
    const extra = round > settings.rounds;
    for (const server of ['project', 'baseline'] as const) {
      // A server that cannot run the scenario (no paging yet) will not in another round either.
      if ((extra && !needsAnother(outcomes[server])) || outcomes[server].some((o) => 'skipped' in o)) continue;
      const outcome = await measure(scenario, commands[server], settings, { log });
      outcomes[server].push(outcome);
      log(`  ${label.padEnd(24)} ${String(round).padStart(2)}  ${server.padEnd(8)}  ${describe(outcome)}`);
    }
    if (round >= settings.rounds && !needsAnother(outcomes.project) && !needsAnother(outcomes.baseline)) break;
  }
  return { project: bestOf(outcomes.project), baseline: bestOf(outcomes.baseline) };
}
