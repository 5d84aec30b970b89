// --profile: the project and the card floor, each alone under node --cpu-prof, on the scenarios
// that show the per-request cost best. For the measured window only: the project's functions
// with the most self time, then the CPU time per request of each source of code (a package, a
// file of ours, node itself, native work) in the project beside the card floor, and the
// difference: what one request of the project costs beyond the card floor, item by item.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { measure, type LoadSettings } from './measure.js';
import { bySource, formatHotSpots, readProfile, selfTime, type Window } from './profile-top.js';
import { createPet, getById, listFirstPage, type Scenario } from './scenarios.js';
import type { ServerCommand } from './server-process.js';
import { type CpuProfileFile, projectCommand, type ProjectSetup, referenceCommand } from './servers.js';

export const PROFILED_SCENARIOS = [listFirstPage, getById, createPet];

/** What the card floor is run from: the compiled baseline script and a database of its own. */
export interface CardFloorSetup {
  readonly script: string;
  readonly database: string;
}

interface Profiled {
  readonly requestsPerSecond: number;
  /** Microseconds of CPU per answered request, by source of code, over the measured window. */
  readonly bySource: ReadonlyMap<string, number>;
  readonly busyMicrosPerRequest: number;
}

/** Measures `scenario` on `command` under the profiler; undefined when it could not be measured or wrote no profile. */
async function profiled(
  scenario: Scenario,
  command: (file: CpuProfileFile) => ServerCommand,
  file: CpuProfileFile,
  settings: LoadSettings,
  root: string,
  log: (line: string) => void,
): Promise<(Profiled & { readonly spots: ReturnType<typeof selfTime>['spots'] }) | undefined> {
  let window: Window | undefined;
  const outcome = await measure(scenario, command(file), settings, { log, measuredWindow: (start, end) => (window = [start, end]) });
  const path = join(file.dir, file.name);
  if ('skipped' in outcome || !existsSync(path)) return undefined;
  const { spots, busyMs } = selfTime(readProfile(path), root, window);
  const requests = outcome.measured.requestsPerSecond * settings.durationSeconds;
  const perRequest = (share: number): number => (share * busyMs * 1000) / requests;
  return {
    requestsPerSecond: outcome.measured.requestsPerSecond,
    bySource: new Map(bySource(spots).map((s) => [s.source, perRequest(s.share)])),
    busyMicrosPerRequest: (busyMs * 1000) / requests,
    spots,
  };
}

/** Every source that costs either server at least 0.5 µs per request, the project's highest first. */
function comparison(project: Profiled, card: Profiled): string {
  const sources = new Set([...project.bySource.keys(), ...card.bySource.keys()]);
  const rows = [...sources]
    .map((source) => ({ source, ours: project.bySource.get(source) ?? 0, floor: card.bySource.get(source) ?? 0 }))
    .filter(({ ours, floor }) => ours >= 0.5 || floor >= 0.5)
    .sort((a, b) => b.ours - a.ours || b.floor - a.floor)
    .map(({ source, ours, floor }) => `     ${ours.toFixed(1).padStart(6)}  ${floor.toFixed(1).padStart(6)}  ${(ours - floor).toFixed(1).padStart(6)}  ${source}`);
  const total = (p: Profiled) => p.busyMicrosPerRequest.toFixed(1).padStart(6);
  return [
    '   CPU µs per request by source (profiled, so higher than unprofiled):',
    '    project   card  difference',
    ...rows,
    `     ${total(project)}  ${total(card)}  ${(project.busyMicrosPerRequest - card.busyMicrosPerRequest).toFixed(1).padStart(6)}  all (busy time)`,
  ].join('\n');
}

export async function runProfile(
  root: string,
  project: Omit<ProjectSetup, 'profile'>,
  cardFloor: CardFloorSetup,
  scenarios: readonly Scenario[],
  settings: LoadSettings,
  log: (line: string) => void,
): Promise<void> {
  const dir = join(root, 'bench/profiles', new Date().toISOString().replace(/[:.]/g, '-'));
  mkdirSync(dir, { recursive: true });
  for (const scenario of scenarios) {
    const ours = await profiled(scenario, (profile) => projectCommand(root, { ...project, profile }), { dir, name: `project-${scenario.id}.cpuprofile` }, settings, root, log);
    const card = await profiled(
      scenario,
      (profile) => referenceCommand('card-floor', root, cardFloor.script, cardFloor.database, { profile }),
      { dir, name: `card-floor-${scenario.id}.cpuprofile` },
      settings,
      root,
      log,
    );
    if (ours === undefined || card === undefined) {
      log(`\n== ${scenario.title}: not profiled (skipped, or no profile was written)`);
      continue;
    }
    log(`\n== ${scenario.title}: ${ours.requestsPerSecond.toFixed(0)} req/s, card floor ${card.requestsPerSecond.toFixed(0)} req/s, both under the profiler`);
    log('   the project\'s top 15 functions by self time:');
    log(formatHotSpots(ours.spots.slice(0, 15)));
    log(comparison(ours, card));
  }
  log(`\nprofiles: ${dir.slice(root.length)} (open them in Chrome DevTools or speedscope for the call trees)`);
}
