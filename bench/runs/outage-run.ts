// The --outage run: each transport at its own pace (docs/decisions/0028-each-transport-at-its-own-pace.md),
// measured at full scale, on SQLite or (with --db) PostgreSQL: its two phases (outage-phases.ts),
// each on its own copy of a seeded database. Results go to bench/results/outage*.*; never to docs/.
import { join } from 'node:path';
import { copyDatabase, seedPets } from '../databases/seed.js';
import { dropOnInterrupt, seedPostgres, shownUrl } from '../databases/postgres-databases.js';
import { describeMachine } from '../harness/machine.js';
import type { BenchOptions, OutageOptions } from '../harness/options.js';
import { EVENTS_DEFAULTS } from '../../src/config/events-config.js';
import { FAST_ENDPOINT_MS, outagePhase, type PhaseRecord, SLOW_ENDPOINT_MS, slowEndpointPhase, WARMUP_S } from './outage-phases.js';
import { markdownTable, textTable } from '../report/report.js';
import { OUTAGE_TARGET, outageFigures, outageTables, slowEndpointFigures } from '../report/outage-report.js';
import { count, json, log, write } from '../report/result-files.js';

/** The databases of the two phases, and what to do with them at the end. */
interface PhaseDatabases {
  readonly shown: string;
  readonly outage: string;
  readonly slow: string;
  readonly server?: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

async function sqliteDatabases(pets: number, workDir: string): Promise<PhaseDatabases> {
  const seeded = join(workDir, 'seeded.db');
  log(`seeding ${count(pets)} pets: ${(await seedPets(seeded, pets)).toFixed(1)} s`);
  const copy = (name: string): string => {
    const path = join(workDir, `${name}.db`);
    copyDatabase(seeded, path);
    return path;
  };
  return { shown: 'SQLite', outage: copy('outage'), slow: copy('slow-endpoint'), close: () => Promise.resolve() };
}

async function postgresDatabases(url: string, pets: number): Promise<PhaseDatabases> {
  const { seconds, databases } = await seedPostgres(url, pets);
  log(`PostgreSQL ${shownUrl(url)}: seeding ${count(pets)} pets: ${seconds.toFixed(1)} s; ${databases.server['version']}`);
  const uninterrupted = dropOnInterrupt(databases);
  try {
    return {
      shown: `PostgreSQL (${shownUrl(url)})`,
      outage: await databases.copyFor('outage'),
      slow: await databases.copyFor('slow-endpoint'),
      server: databases.server,
      close: async () => {
        uninterrupted();
        await databases.dropAll();
        log('the bench_* databases of this run are dropped');
      },
    };
  } catch (err) {
    uninterrupted();
    await databases.dropAll();
    throw err;
  }
}

/** bench/results/outage[-postgres][-quick]. */
const stemOf = (options: BenchOptions): string =>
  ['outage', ...(options.database === undefined ? [] : ['postgres']), ...(options.mode === 'quick' ? ['quick'] : [])].join('-');

function writeResults(
  options: BenchOptions,
  o: OutageOptions,
  shown: string,
  server: unknown,
  phases: readonly [PhaseRecord, PhaseRecord],
) {
  const outage = outageFigures(phases[0]);
  const slow = slowEndpointFigures(phases[1]);
  const tables = outageTables(outage, slow);
  log(`\n${tables.map(textTable).join('\n\n')}`);
  for (const [name, figures] of [
    ['NATS stopped', outage],
    ['slow endpoint', slow],
  ] as const)
    log(
      `${name}: ${figures.verdict.met ? 'every check met' : `NOT met: ${figures.verdict.misses.join('; ')}`}` +
        (figures.counts.cpu.disturbed ? ` (DISTURBED: other processes used ${figures.counts.cpu.othersPercent.toFixed(0)}% of a CPU)` : ''),
    );
  const stem = stemOf(options);
  write({
    [`bench/results/${stem}.json`]: json({
      when: new Date().toISOString(),
      machine: describeMachine(),
      settings: {
        database: shown,
        ...(server !== undefined && { server }),
        pets: options.pets,
        ...o,
        endpointMs: { fast: FAST_ENDPOINT_MS, slow: SLOW_ENDPOINT_MS },
        phase2WarmupS: WARMUP_S,
        project: EVENTS_DEFAULTS,
      },
      target: OUTAGE_TARGET,
      natsStopped: outage,
      slowEndpoint: slow,
      backlogs: { natsStopped: phases[0].backlogs, slowEndpoint: phases[1].backlogs },
    }),
    [`bench/results/${stem}.md`]: `${tables.map(markdownTable).join('\n\n')}\n`,
  });
}

export async function outageRun(options: BenchOptions, workDir: string): Promise<void> {
  const o = options.outage!;
  const databases =
    options.database === undefined ? await sqliteDatabases(options.pets, workDir) : await postgresDatabases(options.database, options.pets);
  try {
    log(`phase 1 of 2, NATS stopped, on ${databases.shown}`);
    const stopped = await outagePhase(databases.outage, workDir, o);
    log(`phase 2 of 2, a slow endpoint, on ${databases.shown}`);
    const slow = await slowEndpointPhase(databases.slow, workDir, o);
    writeResults(options, o, databases.shown, databases.server, [stopped, slow]);
  } finally {
    await databases.close();
  }
}
