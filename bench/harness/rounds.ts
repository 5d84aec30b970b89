// One scenario on several servers in alternating rounds (A, B, C, D, A, B, C, D…), measured
// again when other processes disturbed too many rounds, and the median of each side reported.
import { measure, type LoadSettings, type Measurement, type Outcome } from './measure.js';
import { describeDelays, pooledDelays } from './event-probe.js';
import { describeActivity, pooledActivity } from './postgres-activity.js';
import type { Scenario } from '../scenarios/scenarios.js';
import type { ServerCommand } from './server-process.js';
import type { ServerName } from '../servers/servers.js';

/** Rounds added, at most, while a side has too few undisturbed rounds. */
const EXTRA_ROUNDS = 3;

export interface RoundSettings extends LoadSettings {
  readonly rounds: number;
}

/** Each side's median, and every round it is the median of. */
export interface SideResults {
  readonly median: Outcome;
  readonly rounds: readonly Outcome[];
}

const describe = (outcome: Outcome): string => {
  if ('skipped' in outcome) return `skipped (${outcome.skipped})`;
  const m = outcome.measured;
  return (
    `${m.requestsPerSecond.toFixed(0).padStart(6)} req/s, p99 ${m.p99Ms.toFixed(2).padStart(6)} ms, ` +
    `server CPU ${m.serverCpuPercent.toFixed(0)}% (${m.serverCpuMicrosPerRequest.toFixed(0)} µs/request), RSS ${m.peakRssMb.toFixed(0)} MB, ` +
    `load generator ${m.generatorCpuPercent.toFixed(0)}%, other processes ${m.othersCpuPercent.toFixed(0)}%${m.disturbed ? ' (disturbed)' : ''}` +
    (m.failures > 0 ? `, ${m.failures} FAILED requests` : '') +
    (m.postgres === undefined ? '' : `\n${' '.repeat(40)}${describeActivity(m.postgres)}`) +
    (m.events === undefined ? '' : `\n${' '.repeat(40)}${describeDelays(m.events)}`)
  );
};

/** The middle value of `values` (the mean of the two middle ones when they are even in number). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The median of each figure over a side's undisturbed rounds, or over all of them when none
 * was undisturbed (then marked disturbed): the machine's swings move the middle round least.
 * The peak RSS is the highest of every round, and the failures their sum; PostgreSQL's activity
 * and the event probes' delays are pooled over the same rounds as the medians.
 */
export function medianOf(outcomes: readonly Outcome[]): Outcome {
  const measured = outcomes.flatMap((o) => ('measured' in o ? [o.measured] : []));
  if (measured.length === 0) return outcomes[0]!;
  const clean = measured.filter((m) => !m.disturbed);
  const kept = clean.length > 0 ? clean : measured;
  const middle = (pick: (m: Measurement) => number): number => median(kept.map(pick));
  const postgres = pooledActivity(kept.flatMap((m) => (m.postgres === undefined ? [] : [m.postgres])));
  const events = pooledDelays(kept.flatMap((m) => (m.events === undefined ? [] : [m.events])));
  return {
    measured: {
      requestsPerSecond: middle((m) => m.requestsPerSecond),
      p50Ms: middle((m) => m.p50Ms),
      p99Ms: middle((m) => m.p99Ms),
      serverCpuPercent: middle((m) => m.serverCpuPercent),
      generatorCpuPercent: middle((m) => m.generatorCpuPercent),
      othersCpuPercent: middle((m) => m.othersCpuPercent),
      serverCpuMicrosPerRequest: middle((m) => m.serverCpuMicrosPerRequest),
      peakRssMb: Math.max(...measured.map((m) => m.peakRssMb)),
      failures: measured.reduce((n, m) => n + m.failures, 0),
      disturbed: clean.length === 0,
      ...(postgres !== undefined && { postgres }),
      ...(events !== undefined && { events }),
    },
  };
}

/** A side needs another round while fewer than a majority of the planned rounds were undisturbed. */
const needsAnother = (outcomes: readonly Outcome[], planned: number): boolean =>
  outcomes.some((o) => 'measured' in o) &&
  outcomes.filter((o) => 'measured' in o && !o.measured.disturbed).length < Math.floor(planned / 2) + 1;

/** `servers` in the order they take turns. */
export async function measureInRounds(
  scenario: Scenario,
  servers: ReadonlyMap<ServerName, ServerCommand>,
  settings: RoundSettings,
  log: (line: string) => void,
  label = scenario.id,
): Promise<Map<ServerName, SideResults>> {
  const outcomes = new Map([...servers.keys()].map((name) => [name, [] as Outcome[]]));
  const short = (name: ServerName): boolean => needsAnother(outcomes.get(name)!, settings.rounds);
  // Every server takes its turn in every round, extra rounds too, so that a drift of the machine weighs on all alike.
  for (let round = 1; round <= settings.rounds + EXTRA_ROUNDS; round++) {
    if (round > settings.rounds && ![...servers.keys()].some(short)) break;
    for (const [name, command] of servers) {
      // A server that cannot run the scenario will not in another round either.
      if (outcomes.get(name)!.some((o) => 'skipped' in o)) continue;
      const outcome = await measure(scenario, command, settings, { log });
      outcomes.get(name)!.push(outcome);
      log(`  ${label.padEnd(24)} ${String(round).padStart(2)}  ${name.padEnd(10)}  ${describe(outcome)}`);
    }
  }
  return new Map([...outcomes].map(([name, rounds]) => [name, { median: medianOf(rounds), rounds }]));
}
