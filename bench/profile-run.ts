// --profile: the project alone under node --cpu-prof, on the scenarios that show its
// per-request cost best; then, for the measured window only, the functions with the most self time.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { measure, type LoadSettings } from './measure.js';
import { bySource, formatHotSpots, readProfile, selfTime, type Window } from './profile-top.js';
import { createPet, getById, listFirstPage, type Scenario } from './scenarios.js';
import { projectCommand, type ProjectSetup } from './servers.js';

export const PROFILED_SCENARIOS = [listFirstPage, getById, createPet];

export async function runProfile(
  root: string,
  project: Omit<ProjectSetup, 'profile'>,
  scenarios: readonly Scenario[],
  settings: LoadSettings,
  log: (line: string) => void,
): Promise<void> {
  const dir = join(root, 'bench/profiles', new Date().toISOString().replace(/[:.]/g, '-'));
  mkdirSync(dir, { recursive: true });
  for (const scenario of scenarios) {
    const name = `project-${scenario.id}.cpuprofile`;
    let window: Window | undefined;
    const outcome = await measure(scenario, projectCommand(root, { ...project, profile: { dir, name } }), settings, {
      log,
      measuredWindow: (start, end) => (window = [start, end]),
    });
    const figures = 'skipped' in outcome ? `skipped (${outcome.skipped})` : `${outcome.measured.requestsPerSecond.toFixed(0)} req/s under the profiler`;
    log(`\n== ${scenario.title}: ${figures}`);
    if (!existsSync(join(dir, name))) {
      log(`   no profile was written (${join(dir, name)})`);
      continue;
    }
    const { spots, busyMs, idleMs } = selfTime(readProfile(join(dir, name)), root, window);
    log(`   measured window: busy ${busyMs.toFixed(0)} ms, idle ${idleMs.toFixed(0)} ms; shares below are of the busy time`);
    log('   top 15 functions by self time:');
    log(formatHotSpots(spots.slice(0, 15)));
    log('   self time by source:');
    log(
      bySource(spots)
        .slice(0, 12)
        .map((s) => `     ${(s.share * 100).toFixed(1).padStart(5)}%  ${s.source}`)
        .join('\n'),
    );
  }
  log(`\nprofiles: ${dir.slice(root.length)} (open them in Chrome DevTools or speedscope for the call trees)`);
}
