// The scenario run: each scenario on the project and on the baseline, one server at a time.
import type { Outcome } from './measure.js';
import { measureInRounds, type RoundSettings } from './rounds.js';
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

export async function runScenarios(
  scenarios: readonly Scenario[],
  servers: Servers,
  settings: RoundSettings,
  log: (line: string) => void,
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) {
    const commands = { project: servers.project(scenario), baseline: servers.baseline(scenario) };
    const { project, baseline } = await measureInRounds(scenario, commands, settings, log);
    const verdict =
      'measured' in project && 'measured' in baseline ? judge(scenario.kind, project.measured, baseline.measured) : undefined;
    results.push({ id: scenario.id, title: scenario.title, kind: scenario.kind, project, baseline, ...(verdict && { verdict }) });
  }
  return results;
}
