// The scenario run on PostgreSQL (--db): the project and the PostgreSQL baseline (and the floors,
// if named), each on its own seeded copy of one database, in alternating rounds, with what the
// backends waited on sampled meanwhile. Results go to bench/results/postgres*.*; never to docs/.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileBaseline } from '../servers/baseline-build.js';
import type { LoadGenerator } from '../harness/load.js';
import type { BenchOptions } from '../harness/options.js';
import { postgresActivityTable } from '../report/postgres-report.js';
import { dropOnInterrupt, projectDefaultPoolSize, seedPostgres, shownUrl } from '../databases/postgres-databases.js';
import { costTable, latencyTable, textTable, throughputTable } from '../report/report.js';
import { caveatNote, count, log, projectLog, ROOT } from '../report/result-files.js';
import { writeRunResults } from '../report/run-results.js';
import { runScenarios } from '../harness/run-scenarios.js';
import { SCENARIOS } from '../scenarios/scenarios.js';
import { steadinessNote } from '../report/steadiness.js';
import type { ServerCommand } from '../harness/server-process.js';
import { earlierCommand, projectCommand, referenceCommand, type ServerName } from '../servers/servers.js';
import { POSTGRES_TARGETS, POSTGRES_WORKERS_TARGETS } from '../scenarios/targets.js';

/** What the tables do not say: the references, the pools, the targets. */
const notes = (poolSize: number, { workers }: BenchOptions): string =>
  `Every reference here is the baseline's handler on pg with ONE pool of ${poolSize} connections (the project's default ` +
  `PETSTORE_PG_POOL_SIZE) and a plain INSERT … RETURNING with no lock of its own; the project ` +
  (workers > 1
    ? `runs ${workers} workers, each with its own pool of ${poolSize} (${workers * poolSize} connections in all). `
    : `has one pool of ${poolSize}. `) +
  (workers > 1 ? '"one process" is the project itself with PETSTORE_WORKERS=1, in the same rounds. ' : '') +
  'Every server works on its own copy of the seeded database. The targets on PostgreSQL: create ≥ 0.80 × the baseline, and ' +
  (workers > 1
    ? `at least as many creates/s as one process; no RSS limit with workers (RSS is the sum of every process)`
    : `RSS < ${POSTGRES_TARGETS.rssMb} MB as on SQLite`) +
  '; the throughput of reads is reported, not judged. ' +
  'PostgreSQL CPU is that of every postgres process on this machine, the sampler\'s backend included, and is not counted as "other processes".';

export async function postgresRun(options: BenchOptions, generator: LoadGenerator, workDir: string): Promise<void> {
  const url = options.database!;
  const scenarios = SCENARIOS.filter((s) => options.only.length === 0 || options.only.includes(s.id));
  const poolSize = await projectDefaultPoolSize();
  log(`PostgreSQL: ${shownUrl(url)}`);
  const seeder = options.against === undefined ? undefined : pathToFileURL(`${options.against}/`);
  const { seconds, databases } = await seedPostgres(url, options.pets, seeder);
  log(
    `seeding ${count(options.pets)} pets (migrated by the project's migratePostgres): ${seconds.toFixed(1)} s; ${databases.server['version']}`,
  );
  log(
    `synchronous_commit ${databases.server['synchronousCommit']}, commit_delay ${databases.server['commitDelay']}, fsync ${databases.server['fsync']}`,
  );
  const uninterrupted = dropOnInterrupt(databases);
  try {
    // With workers, the project with one process runs in the same rounds (the workers target compares the two).
    const names: ServerName[] = [
      'project',
      ...(options.against === undefined ? [] : (['earlier'] as const)),
      ...options.references,
      ...(options.workers > 1 ? (['one-process'] as const) : []),
    ];
    log(
      `${scenarios.length} scenarios × ${names.length} servers (${names.join(', ')}) × ${options.rounds} round(s) × ` +
        `(${options.warmupSeconds} s warm-up + ${options.durationSeconds} s), ${options.connections} connections`,
    );
    const baselineScript = compileBaseline(ROOT);
    const servers = new Map<ServerName, ServerCommand>([
      [
        'project',
        projectCommand(ROOT, { database: await databases.copyFor('project'), logFile: projectLog(workDir), workers: options.workers }),
      ],
    ]);
    if (options.against !== undefined) {
      const earlier = { database: await databases.copyFor('earlier'), logFile: join(workDir, 'earlier.log'), workers: options.workers };
      servers.set('earlier', earlierCommand(options.against, earlier));
    }
    for (const reference of options.references) {
      const setup = { poolSize };
      servers.set(reference, referenceCommand(reference, ROOT, baselineScript, await databases.copyFor(reference), setup));
    }
    if (options.workers > 1) {
      const oneProcess = { database: await databases.copyFor('one-process'), logFile: projectLog(workDir), workers: 1 };
      servers.set('one-process', { ...projectCommand(ROOT, oneProcess), label: 'the project server with one process' });
    }
    const settings = { ...options, generator };
    const targets = options.workers > 1 ? POSTGRES_WORKERS_TARGETS : POSTGRES_TARGETS;
    const results = await runScenarios(scenarios, servers, settings, log, targets);
    // The project's figures are divided by the references and, with workers, by itself in one process.
    const tables = [
      throughputTable(results, names),
      latencyTable(results, names),
      costTable(results, names),
      postgresActivityTable(results, names),
    ];
    const note = notes(poolSize, options);
    log(`\n${tables.map(textTable).join('\n\n')}\n\n${note}${steadinessNote(results)}${caveatNote(generator)}`);

    const stem = options.workers > 1 ? `postgres-workers-${options.workers}` : 'postgres';
    writeRunResults({
      stem,
      chartPath: `bench/results/${stem}.svg`,
      subtitlePrefix: 'PostgreSQL, ',
      options,
      generator,
      settings: { postgres: { url: shownUrl(url), poolSize, ...databases.server } },
      note,
      targets,
      names,
      tables,
      results,
    });
  } finally {
    uninterrupted();
    await databases.dropAll();
    log('the bench_* databases of this run are dropped');
  }
}
