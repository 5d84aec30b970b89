// npm run bench: the project beside the bare-metal baseline. See docs/benchmarks.md.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileBaseline } from './baseline-build.js';
import { throughputChart } from './chart-svg.js';
import { describeMachine, machineLine } from './machine.js';
import { type BenchOptions, parseOptions } from './options.js';
import { runProfile } from './profile-run.js';
import { COLUMNS, markdownTable, rows, textTable } from './report.js';
import { runScaleCheck, type ScaleRow } from './scale-check.js';
import { runScenarios } from './run-scenarios.js';
import { SCENARIOS } from './scenarios.js';
import { copyDatabase, seedPets } from './seed.js';
import { baselineCommand, projectCommand } from './servers.js';
import { TARGETS } from './targets.js';

const ROOT = new URL('..', import.meta.url).pathname;
const RESULTS = join(ROOT, 'bench/results');
const log = (line: string): void => void process.stdout.write(`${line}\n`);
const count = (n: number): string => n.toLocaleString('en-US');

async function scenarioRun(options: BenchOptions, workDir: string): Promise<void> {
  const projectDb = join(workDir, 'project.db');
  const baselineDb = join(workDir, 'baseline.db');
  log(`seeding ${count(options.pets)} pets: ${(await seedPets(projectDb, options.pets)).toFixed(1)} s`);
  copyDatabase(projectDb, baselineDb);
  const settings = { ...options, pets: options.pets };
  if (options.profile) return runProfile(ROOT, projectDb, settings, log);

  const scenarios = SCENARIOS.filter((s) => options.only.length === 0 || options.only.includes(s.id));
  const unknown = options.only.filter((id) => !SCENARIOS.some((s) => s.id === id));
  if (unknown.length > 0) throw new Error(`unknown scenario ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.id).join(', ')}`);
  log(
    `${scenarios.length} scenarios × 2 servers × ${options.rounds} round(s) × (${options.warmupSeconds} s warm-up + ${options.durationSeconds} s), ` +
      `${options.connections} connections`,
  );
  const baselineScript = compileBaseline(ROOT);
  const results = await runScenarios(
    scenarios,
    { project: () => projectCommand(ROOT, projectDb), baseline: () => baselineCommand(ROOT, baselineScript, baselineDb) },
    settings,
    log,
  );
  const deep = results.find((r) => r.id === 'deep-page');
  if (deep !== undefined && 'skipped' in deep.project) log(`deep page: skipped (${deep.project.skipped})`);

  const table = rows(results);
  log(`\n${textTable(COLUMNS, table)}`);
  const machine = describeMachine();
  // Only a full run of every scenario replaces the figures and the chart of the documentation.
  const complete = options.mode === 'full' && scenarios.length === SCENARIOS.length;
  const stem = complete ? 'latest' : options.mode === 'quick' ? 'quick' : 'partial';
  const when = new Date().toISOString();
  const settingsLine =
    `${count(options.pets)} pets, ${options.connections} connections, ${options.durationSeconds} s after ${options.warmupSeconds} s warm-up, ` +
    `best of ${options.rounds}`;
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(
    join(RESULTS, `${stem}.json`),
    `${JSON.stringify({ when, machine, settings: { pets: options.pets, connections: options.connections, durationSeconds: options.durationSeconds, warmupSeconds: options.warmupSeconds, rounds: options.rounds }, targets: TARGETS, scenarios: results }, null, 2)}\n`,
  );
  writeFileSync(join(RESULTS, `${stem}.md`), `${markdownTable(COLUMNS, table)}\n`);
  const chart = complete ? join(ROOT, 'docs/benchmarks.svg') : join(RESULTS, `${stem}.svg`);
  writeFileSync(chart, throughputChart(results, `${settingsLine}; ${machineLine(machine)}; ${when.slice(0, 10)}`));
  log(`\nwritten: bench/results/${stem}.json, bench/results/${stem}.md, ${chart.slice(ROOT.length)}`);
}

function scaleTable(scale: readonly ScaleRow[]): string[][] {
  const rps = (o: ScaleRow['small']): string => ('skipped' in o ? `skipped (${o.skipped})` : o.measured.requestsPerSecond.toFixed(0));
  const p99 = (o: ScaleRow['small']): string => ('skipped' in o ? '—' : o.measured.p99Ms.toFixed(2));
  return scale.map((r) => [
    r.scenario,
    r.server,
    rps(r.small),
    rps(r.large),
    r.costRatio?.toFixed(2) ?? '—',
    `${p99(r.small)} / ${p99(r.large)}`,
    r.met === undefined ? (r.scenario === 'deep-page' ? 'deep page: pending cursor paging' : '—') : r.met ? 'yes' : 'no',
  ]);
}

async function scaleRun(options: BenchOptions, workDir: string): Promise<void> {
  const [small, large] = options.scalePets;
  log(`scale check: status filter and deep page at ${count(small)} and ${count(large)} pets`);
  const scale = await runScaleCheck(ROOT, compileBaseline(ROOT), workDir, { ...options, sizes: options.scalePets }, log);
  const header = ['scenario', 'server', `req/s at ${count(small)}`, `req/s at ${count(large)}`, `cost ratio (≤ ${TARGETS.scaleRatio})`, 'p99 ms small / large', 'target met?'];
  const table = scaleTable(scale);
  log(`\n${textTable(header, table)}`);
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, 'scale.json'), `${JSON.stringify({ when: new Date().toISOString(), machine: describeMachine(), sizes: options.scalePets, rows: scale }, null, 2)}\n`);
  writeFileSync(join(RESULTS, 'scale.md'), `${markdownTable(header, table)}\n`);
  log('\nwritten: bench/results/scale.json, bench/results/scale.md');
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
  log(`machine: ${machineLine(describeMachine())}`);
  const workDir = mkdtempSync(join(tmpdir(), 'petstore-bench-'));
  const started = Date.now();
  try {
    await (options.mode === 'scale' ? scaleRun(options, workDir) : scenarioRun(options, workDir));
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  log(`bench done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

await main();
