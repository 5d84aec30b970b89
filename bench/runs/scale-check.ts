// The scale check: the status filter and the deep page at a small and a large number of pets.
// Their cost must not grow with the data: large/small time per request within TARGETS.scaleRatio.
import { join } from 'node:path';
import type { LoadSettings, Outcome } from '../harness/measure.js';
import { measureInRounds } from '../harness/rounds.js';
import { deepPage, listByStatus } from '../scenarios/scenarios.js';
import { copyDatabase, seedPets } from '../databases/seed.js';
import type { ServerCommand } from '../harness/server-process.js';
import { projectCommand, referenceCommand, type ServerName } from '../servers/servers.js';
import { TARGETS } from '../scenarios/targets.js';

const count = (n: number): string => n.toLocaleString('en-US');

export interface ScaleRow {
  readonly scenario: string;
  readonly server: ServerName;
  readonly small: Outcome;
  readonly large: Outcome;
  /** Throughput at the small size over the large one: how much slower a request became; absent if skipped. */
  readonly throughputRatio?: number;
  /** Server CPU time per request at the large size over the small one: how much costlier a request became. */
  readonly cpuRatio?: number;
  readonly p99Ratio?: number;
  readonly met?: boolean;
}

export interface ScaleSettings extends Omit<LoadSettings, 'pets'> {
  readonly sizes: readonly [number, number];
  readonly rounds: number;
}

export async function runScaleCheck(
  root: string,
  baselineScript: string,
  workDir: string,
  projectLog: string,
  settings: ScaleSettings,
  log: (line: string) => void,
): Promise<ScaleRow[]> {
  const outcomes = new Map<string, Outcome>();
  for (const pets of settings.sizes) {
    const projectDb = join(workDir, `scale-${pets}-project.db`);
    const baselineDb = join(workDir, `scale-${pets}-baseline.db`);
    log(`seeding ${count(pets)} pets: ${(await seedPets(projectDb, pets)).toFixed(1)} s`);
    copyDatabase(projectDb, baselineDb);
    const servers = new Map<ServerName, ServerCommand>([
      ['project', projectCommand(root, { database: projectDb, logFile: projectLog })],
      ['baseline', referenceCommand('baseline', root, baselineScript, baselineDb)],
    ]);
    for (const scenario of [listByStatus, deepPage]) {
      const sides = await measureInRounds(scenario, servers, { ...settings, pets }, log, `${count(pets)} pets ${scenario.id}`);
      for (const [server, side] of sides) outcomes.set(`${scenario.id} ${server} ${pets}`, side.median);
    }
  }
  const [small, large] = settings.sizes;
  return [listByStatus, deepPage].flatMap((scenario) =>
    (['project', 'baseline'] as const).map((server): ScaleRow => {
      const s = outcomes.get(`${scenario.id} ${server} ${small}`)!;
      const l = outcomes.get(`${scenario.id} ${server} ${large}`)!;
      if (!('measured' in s) || !('measured' in l)) return { scenario: scenario.id, server, small: s, large: l };
      const throughputRatio = s.measured.requestsPerSecond / l.measured.requestsPerSecond;
      const cpuRatio = l.measured.serverCpuMicrosPerRequest / s.measured.serverCpuMicrosPerRequest;
      const p99Ratio = l.measured.p99Ms / s.measured.p99Ms;
      const clean = l.measured.failures === 0 && s.measured.failures === 0;
      const met = throughputRatio <= TARGETS.scaleRatio && cpuRatio <= TARGETS.scaleRatio && clean;
      return { scenario: scenario.id, server, small: s, large: l, throughputRatio, cpuRatio, p99Ratio, met };
    }),
  );
}
