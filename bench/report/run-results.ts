// The files a scenario run writes, on SQLite or PostgreSQL: the JSON of every round and median
// with the settings, the machine and the targets; the tables as Markdown; the throughput chart.
import { throughputChart } from './chart-svg.js';
import type { LoadGenerator } from '../harness/load.js';
import { describeMachine, machineLine } from '../harness/machine.js';
import type { BenchOptions } from '../harness/options.js';
import { markdownTable, type Table } from './report.js';
import { caveatNote, count, generatorRecord, json, write } from './result-files.js';
import type { ScenarioResult } from '../harness/run-scenarios.js';
import type { ServerName } from '../servers/servers.js';
import { steadiness, steadinessNote } from './steadiness.js';

export interface RunResults {
  /** bench/results/<stem>.json and .md. */
  readonly stem: string;
  /** Where the chart goes, relative to the root. */
  readonly chartPath: string;
  /** Put before the chart's subtitle, e.g. "PostgreSQL, ". */
  readonly subtitlePrefix: string;
  readonly options: BenchOptions;
  readonly generator: LoadGenerator;
  /** Settings of the run beyond the options every run records (the database's, say). */
  readonly settings: Readonly<Record<string, unknown>>;
  /** What the tables do not say, written under them. */
  readonly note?: string;
  readonly targets: unknown;
  readonly names: readonly ServerName[];
  readonly tables: readonly Table[];
  readonly results: readonly ScenarioResult[];
  /** Figures of the run beyond the scenarios' (the events' with --events), written after them. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

export function writeRunResults(run: RunResults): void {
  const { options, generator, note } = run;
  const machine = describeMachine();
  const when = new Date().toISOString();
  const { pets, connections, durationSeconds, warmupSeconds, rounds, references, workers } = options;
  const subtitle =
    `${run.subtitlePrefix}${count(pets)} pets, ${generator.name} with ${connections} connections,` +
    `${workers > 1 ? ` project with ${workers} workers,` : ''} ` +
    `${durationSeconds} s after ${warmupSeconds} s warm-up, median of ${rounds} rounds; ${machineLine(machine)}; ${when.slice(0, 10)}`;
  write({
    [`bench/results/${run.stem}.json`]: json({
      when,
      machine,
      loadGenerator: generatorRecord(generator, options),
      settings: { pets, connections, durationSeconds, warmupSeconds, rounds, references, workers, ...run.settings },
      ...(note !== undefined && { notes: note }),
      targets: run.targets,
      // Per scenario, how much the same server's CPU per request moved between rounds (steadiness.ts).
      steadiness: steadiness(run.results),
      scenarios: run.results,
      ...run.extra,
    }),
    [`bench/results/${run.stem}.md`]: `${run.tables.map(markdownTable).join('\n\n')}${note === undefined ? '' : `\n\n${note}`}${steadinessNote(run.results)}${caveatNote(generator)}\n`,
    [run.chartPath]: throughputChart(run.results, run.names, subtitle),
  });
}
