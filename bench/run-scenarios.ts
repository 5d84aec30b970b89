// The scenario run: each scenario on the project, then on the baseline, one server at a time.
import { measure, type LoadSettings, type Measurement, type Outcome } from './measure.js';
import type { Scenario, ScenarioKind } from './scenarios.js';
import type { ServerCommand } from './server-process.js';
import { judge, type Verdict } from './targets.js';

export interface ScenarioResult {
  readonly id: string;
  readonly title: string;
  readonly kind: ScenarioKind;
  readonly project: Outcome;
  readonly baseline: Outcome;
  /** Absent when either side could not be measured. */
  readonly verdict?: Verdict;
}

export interface Servers {
  readonly project: (scenario: Scenario) => ServerCommand;
  readonly baseline: (scenario: Scenario) => ServerCommand;
}

const describe = (outcome: Outcome): string =>
  'skipped' in outcome
    ? `skipped (${outcome.skipped})`
    : `${outcome.measured.requestsPerSecond.toFixed(0).padStart(6)} req/s, p99 ${outcome.measured.p99Ms.toFixed(2).padStart(6)} ms, ` +
      `server CPU ${outcome.measured.serverCpuPercent.toFixed(0)}% (${outcome.measured.serverCpuMicrosPerRequest.toFixed(0)} µs/request), ` +
      `other processes ${outcome.measured.othersCpuPercent.toFixed(0)}%` +
      (outcome.measured.failures > 0 ? `, ${outcome.measured.failures} FAILED requests` : '');

/**
 * The best of several rounds: the one with the highest throughput, as other work on the
 * machine can only slow a round down; the peak RSS is the highest of all rounds.
 */
export function bestOf(outcomes: readonly Outcome[]): Outcome {
  const measured = outcomes.flatMap((o) => ('measured' in o ? [o.measured] : []));
  if (measured.length === 0) return outcomes[0]!;
  const best = measured.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
  const worst = (pick: (m: Measurement) => number): number => Math.max(...measured.map(pick));
  return { measured: { ...best, peakRssMb: worst((m) => m.peakRssMb), failures: measured.reduce((n, m) => n + m.failures, 0) } };
}

export async function runScenarios(
  scenarios: readonly Scenario[],
  servers: Servers,
  settings: LoadSettings & { readonly rounds: number },
  log: (line: string) => void,
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) {
    // The measurements of a scenario alternate between the servers, back to back, so that a
    // drift of the machine (other tenants, heat) weighs on both sides alike.
    const rounds: { project: Outcome; baseline: Outcome }[] = [];
    for (let round = 1; round <= settings.rounds; round++) {
      const project = await measure(scenario, servers.project(scenario), settings, { log });
      log(`  ${scenario.id.padEnd(16)} ${round}  project   ${describe(project)}`);
      const baseline = await measure(scenario, servers.baseline(scenario), settings, { log });
      log(`  ${scenario.id.padEnd(16)} ${round}  baseline  ${describe(baseline)}`);
      rounds.push({ project, baseline });
    }
    const project = bestOf(rounds.map((r) => r.project));
    const baseline = bestOf(rounds.map((r) => r.baseline));
    const verdict =
      'measured' in project && 'measured' in baseline ? judge(scenario.kind, project.measured, baseline.measured) : undefined;
    results.push({ id: scenario.id, title: scenario.title, kind: scenario.kind, project, baseline, ...(verdict && { verdict }) });
  }
  return results;
}
