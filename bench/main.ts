// npm run bench: the project beside its references (the baseline, the Koa floor, the card floor). See docs/performance.md.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { copyDatabase, projectSynchronous, seedPets } from './databases/seed.js';
import { chooseLoadGenerator } from './harness/load-generator.js';
import type { LoadGenerator } from './harness/load.js';
import { describeMachine, machineLine } from './harness/machine.js';
import { type BenchOptions, parseOptions } from './harness/options.js';
import { runScenarios } from './harness/run-scenarios.js';
import { type NatsServer, startNatsServer } from './harness/nats-server.js';
import { startVariants, stopVariants, variantServer } from './harness/project-variants.js';
import type { ServerCommand } from './harness/server-process.js';
import { EVENTS_NOTE, eventsSummary, eventsTable } from './report/events-report.js';
import { costTable, latencyTable, markdownTable, scaleTable, textTable, throughputTable } from './report/report.js';
import { caveatNote, count, generatorRecord, json, log, projectLog, ROOT, write } from './report/result-files.js';
import { writeRunResults } from './report/run-results.js';
import { variantSummary, variantTable } from './report/variant-report.js';
import { steadinessNote } from './report/steadiness.js';
import { outageRun } from './runs/outage-run.js';
import { postgresRun } from './runs/postgres-run.js';
import { runScaleCheck } from './runs/scale-check.js';
import { type Scenario, SCENARIOS } from './scenarios/scenarios.js';
import { EVENTS_TARGET, TARGETS } from './scenarios/targets.js';
import { compileBaseline } from './servers/baseline-build.js';
import {
  earlierCommand,
  type ProjectSetup,
  projectCommand,
  REFERENCE_SYNCHRONOUS,
  REFERENCES,
  referenceCommand,
  type ServerName,
} from './servers/servers.js';

/** The name of a run's result files: only a complete one-process full run of the project is `latest`; one with --events is `events`, with --jwt `jwt`, with --tracing `tracing`. */
function resultStem(options: BenchOptions, complete: boolean): string {
  const stem = options.workers > 1 ? `workers-${options.workers}` : complete ? 'latest' : options.mode === 'quick' ? 'quick' : 'partial';
  const extras = (['events', 'jwt', 'tracing'] as const).filter((extra) => options[extra]);
  if (extras.length === 0) return stem;
  return stem === 'latest' ? extras.join('-') : [stem, ...extras].join('-');
}

/** With --events, the project twice more, on creates only: with no events, and with its events relayed to `nats`. */
function eventsServers(root: string, project: ProjectSetup, database: (server: ServerName) => string, nats: NatsServer) {
  const only = { scenarios: ['create'] };
  return new Map<ServerName, ServerCommand>([
    [
      'events-off',
      {
        ...projectCommand(root, { ...project, database: database('events-off'), events: 'off' }),
        ...only,
        label: 'the project server, events off',
      },
    ],
    [
      'jetstream',
      {
        ...projectCommand(root, { ...project, database: database('jetstream'), events: nats }),
        ...only,
        label: 'the project server, events to JetStream',
      },
    ],
  ]);
}

/** With --against, the project as built in `root`, measured in the same rounds as `earlier`. */
const earlierServer = (root: string | undefined, setup: ProjectSetup): Array<[ServerName, ServerCommand]> =>
  root === undefined ? [] : [['earlier', earlierCommand(root, setup)]];

async function scenarioRun(options: BenchOptions, generator: LoadGenerator, workDir: string): Promise<void> {
  const chosen = (from: readonly Scenario[]): Scenario[] => from.filter((s) => options.only.length === 0 || options.only.includes(s.id));
  const seeded = join(workDir, 'seeded.db');
  // With --against, the earlier build seeds: its schema is one this checkout upgrades, not the reverse.
  const seeder = options.against === undefined ? undefined : pathToFileURL(`${options.against}/`);
  log(`seeding ${count(options.pets)} pets: ${(await seedPets(seeded, options.pets, seeder)).toFixed(1)} s`);
  // Read on a file of its own: opening the seeded one would migrate it past an earlier build's schema (--against).
  const synchronous = { project: await projectSynchronous(join(workDir, 'synchronous-probe.db')), references: REFERENCE_SYNCHRONOUS };
  log(`SQLite synchronous: the project ${synchronous.project}, the references ${synchronous.references}`);
  if (synchronous.project !== synchronous.references) {
    log('WARNING: the project and the references commit with different durability: the create ratio compares unlike work');
  }
  /** Each server has a copy of its own, so that the creates of one never reach another. */
  const database = (server: ServerName): string => {
    const path = join(workDir, `${server}.db`);
    copyDatabase(seeded, path);
    return path;
  };
  const settings = { ...options, generator };
  const project = { database: database('project'), logFile: projectLog(workDir), workers: options.workers };
  const scenarios = chosen(SCENARIOS);
  const names: ServerName[] = ['project', ...(options.against === undefined ? [] : (['earlier'] as const)), ...options.references];
  log(
    `${scenarios.length} scenarios × ${names.length} servers (${names.join(', ')}) × ${options.rounds} round(s) × ` +
      `(${options.warmupSeconds} s warm-up + ${options.durationSeconds} s), ${options.connections} connections` +
      (options.events ? '; on create, also the project with events off and with events to JetStream' : '') +
      (options.jwt ? '; on get-by-id, also the project with a JWT instead of the API key' : '') +
      (options.tracing ? '; on get-by-id, also the project tracing every request' : ''),
  );
  const baselineScript = compileBaseline(ROOT);
  const servers = new Map<ServerName, ServerCommand>([
    ['project', projectCommand(ROOT, project)],
    ...earlierServer(options.against, { ...project, database: database('earlier'), logFile: join(workDir, 'earlier.log') }),
    ...options.references.map((reference): [ServerName, ServerCommand] => [
      reference,
      referenceCommand(reference, ROOT, baselineScript, database(reference)),
    ]),
  ]);
  const nats = options.events ? await startNatsServer(workDir) : undefined;
  const variants = await startVariants(options);
  try {
    if (nats !== undefined) {
      log(`nats-server ${nats.version} with JetStream on ${nats.url}, its store in a temp folder`);
      for (const [name, command] of eventsServers(ROOT, project, database, nats)) servers.set(name, command);
    }
    for (const variant of variants) {
      log(variant.started);
      servers.set(...variantServer(ROOT, project, database, variant));
    }
    const results = await runScenarios(scenarios, servers, settings, log);
    const tables = [throughputTable(results, names), latencyTable(results, names), costTable(results, names)];
    if (nats !== undefined) tables.push(eventsTable(results));
    tables.push(...variants.map((variant) => variantTable(results, variant)));
    const notes = [...(nats === undefined ? [] : [EVENTS_NOTE]), ...variants.map((variant) => variant.note())];
    const note = notes.length === 0 ? undefined : notes.join('\n\n');
    log(
      `\n${tables.map(textTable).join('\n\n')}${note === undefined ? '' : `\n\n${note}`}${steadinessNote(results)}${caveatNote(generator)}`,
    );

    // Only a full run of every scenario and every reference, with one server process, replaces the figures and the chart of the documentation.
    const complete =
      options.mode === 'full' &&
      scenarios.length === SCENARIOS.length &&
      options.references.length === REFERENCES.length &&
      options.workers === 1 &&
      options.against === undefined;
    const stem = resultStem(options, complete);
    writeRunResults({
      stem,
      chartPath: stem === 'latest' ? 'docs/performance.svg' : `bench/results/${stem}.svg`,
      subtitlePrefix: '',
      options,
      generator,
      settings: { sqliteSynchronous: synchronous, ...(nats !== undefined && { natsServer: nats.version }) },
      ...(note !== undefined && { note }),
      targets: {
        ...TARGETS,
        ...(nats !== undefined && { events: EVENTS_TARGET }),
        ...Object.fromEntries(variants.map((variant) => [variant.target.server, variant.target])),
      },
      names,
      tables,
      results,
      extra: {
        ...(nats !== undefined && { events: eventsSummary(results) }),
        ...Object.fromEntries(variants.map((variant) => [variant.target.server, variantSummary(results, variant)])),
      },
    });
  } finally {
    await nats?.stop();
    await stopVariants(variants);
  }
}

async function scaleRun(options: BenchOptions, generator: LoadGenerator, workDir: string): Promise<void> {
  const [small, large] = options.scalePets;
  log(`scale check: status filter and deep page at ${count(small)} and ${count(large)} pets`);
  const settings = { ...options, generator, sizes: options.scalePets };
  const scale = await runScaleCheck(ROOT, compileBaseline(ROOT), workDir, projectLog(workDir), settings, log);
  const table = scaleTable(options.scalePets, scale);
  log(`\n${textTable(table)}${caveatNote(generator)}`);
  write({
    'bench/results/scale.json': json({
      when: new Date().toISOString(),
      machine: describeMachine(),
      loadGenerator: generatorRecord(generator, options),
      sizes: options.scalePets,
      rows: scale,
    }),
    'bench/results/scale.md': `${markdownTable(table)}${caveatNote(generator)}\n`,
  });
}

async function main(): Promise<void> {
  let options: BenchOptions;
  try {
    options = parseOptions(process.argv.slice(2), process.env);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  if (!existsSync(join(ROOT, 'dist/main.js'))) {
    process.stderr.write('dist/main.js is missing: run "npm run build" first (npm run bench does)\n');
    process.exitCode = 1;
    return;
  }
  if (options.against !== undefined && !existsSync(join(options.against, 'dist/main.js'))) {
    process.stderr.write(`${options.against}/dist/main.js is missing: run "npm ci && npm run build" in that checkout first\n`);
    process.exitCode = 1;
    return;
  }
  log(`machine: ${machineLine(describeMachine())}`);
  // The databases live outside the working tree and are removed at the end, whatever happens.
  const workDir = mkdtempSync(join(tmpdir(), 'petstore-bench-'));
  const started = Date.now();
  try {
    if (options.outage !== undefined) {
      await outageRun(options, workDir);
    } else {
      const generator = chooseLoadGenerator(workDir, log);
      log(`load: ${generator.describe(options.connections, options.durationSeconds)}`);
      const run = options.database !== undefined ? postgresRun : options.mode === 'scale' ? scaleRun : scenarioRun;
      await run(options, generator, workDir);
    }
    const logged = existsSync(projectLog(workDir)) ? statSync(projectLog(workDir)).size : 0;
    log(`the project logged ${(logged / 1024 ** 2).toFixed(0)} MB to its log file meanwhile`);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  log(`bench done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

await main();
