// The scale check: the status filter and the deep page at a small and a large number of pets.
// Their cost must not grow with the data: large/small time per request within TARGETS.scaleRatio.
import { join } from 'node:path';
import { measure, type LoadSettings, type Outcome } from './measure.js';
import { bestOf } from './run-scenarios.js';
import { deepPage, listByStatus } from './scenarios.js';
import { copyDatabase, seedPets } from './seed.js';
import { baselineCommand, projectCommand, type ServerName } from './servers.js';
import { TARGETS } from './targets.js';

export interface ScaleRow {
  readonly scenario: string;
  readonly server: ServerName;
  readonly small: Outcome;
  readonly large: Outcome;
  /** Time per request at the large size over the small one (throughput small / large); absent if skipped. */
  readonly costRatio?: number;
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
  settings: ScaleSettings,
  log: (line: string) => void,
): Promise<ScaleRow[]> {
  const outcomes = new Map<string, Outcome>();
  for (const pets of settings.sizes) {
    const projectDb = join(workDir, `scale-${pets}-project.db`);
    const baselineDb = join(workDir, `scale-${pets}-baseline.db`);
    log(`seeding ${pets.toLocaleString('en-US')} pets: ${(await seedPets(projectDb, pets)).toFixed(1)} s`);
    copyDatabase(projectDb, baselineDb);
    for (const scenario of [listByStatus, deepPage]) {
      const rounds = new Map<ServerName, Outcome[]>([['project', []], ['baseline', []]]);
      for (let round = 1; round <= settings.rounds; round++) {
        for (const [server, command] of [['project', projectCommand(root, projectDb)], ['baseline', baselineCommand(root, baselineScript, baselineDb)]] as const) {
          const outcome = await measure(scenario, command, { ...settings, pets }, { log });
          rounds.get(server)!.push(outcome);
          const shown =
            'skipped' in outcome
              ? `skipped (${outcome.skipped})`
              : `${outcome.measured.requestsPerSecond.toFixed(0)} req/s, p99 ${outcome.measured.p99Ms.toFixed(2)} ms, ` +
                `RSS ${outcome.measured.peakRssMb.toFixed(0)} MB, other processes ${outcome.measured.othersCpuPercent.toFixed(0)}% CPU`;
          log(`  ${String(pets).padStart(8)} pets  ${scenario.id.padEnd(16)} ${round}  ${server.padEnd(9)} ${shown}`);
        }
      }
      for (const [server, measured] of rounds) outcomes.set(`${scenario.id} ${server} ${pets}`, bestOf(measured));
    }
  }
  const [small, large] = settings.sizes;
  return [listByStatus, deepPage].flatMap((scenario) =>
    (['project', 'baseline'] as const).map((server): ScaleRow => {
      const s = outcomes.get(`${scenario.id} ${server} ${small}`)!;
      const l = outcomes.get(`${scenario.id} ${server} ${large}`)!;
      if (!('measured' in s) || !('measured' in l)) return { scenario: scenario.id, server, small: s, large: l };
      const costRatio = s.measured.requestsPerSecond / l.measured.requestsPerSecond;
      const p99Ratio = l.measured.p99Ms / s.measured.p99Ms;
      const met = costRatio <= TARGETS.scaleRatio && l.measured.failures === 0 && s.measured.failures === 0;
      return { scenario: scenario.id, server, small: s, large: l, costRatio, p99Ratio, met };
    }),
  );
}
