// The scenario run: each scenario on the project and its references, one server at a time,
// in alternating rounds.
import type { Outcome } from './measure.js';
import { measureInRounds, type RoundSettings } from './rounds.js';
import type { Scenario, ScenarioKind } from '../scenarios/scenarios.js';
import type { ServerCommand } from './server-process.js';
import type { ServerName } from '../servers/servers.js';
import { judge, TARGETS, type Targets, type Verdict } from '../scenarios/targets.js';

export interface ScenarioResult {
  readonly id: string;
  readonly title: string;
  readonly kind: ScenarioKind;
  /** Each server's median over its rounds: the figures reported and judged. */
  readonly medians: Partial<Record<ServerName, Outcome>>;
  /** Each server's rounds, in the order they were measured. */
  readonly rounds: Partial<Record<ServerName, readonly Outcome[]>>;
  /** Absent when the project or a reference a target names could not be measured. */
  readonly verdict?: Verdict;
}

/** `servers` in the order they take turns in each round; a server that names its scenarios takes part in those only. */
export async function runScenarios(
  scenarios: readonly Scenario[],
  servers: ReadonlyMap<ServerName, ServerCommand>,
  settings: RoundSettings,
  log: (line: string) => void,
  targets: Targets = TARGETS,
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) {
    const taking = new Map([...servers].filter(([, command]) => command.scenarios?.includes(scenario.id) ?? true));
    const sides = [...(await measureInRounds(scenario, taking, settings, log))];
    const medians = Object.fromEntries(sides.map(([name, side]) => [name, side.median]));
    const rounds = Object.fromEntries(sides.map(([name, side]) => [name, side.rounds]));
    const projectIn = (id: string): Outcome | undefined => results.find((r) => r.id === id)?.medians.project;
    const verdict = judge(scenario.id, scenario.kind, medians, targets, projectIn);
    results.push({ id: scenario.id, title: scenario.title, kind: scenario.kind, medians, rounds, ...(verdict && { verdict }) });
  }
  return results;
}
