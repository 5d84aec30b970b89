// The workers target on PostgreSQL: N workers must make at least as many creates per second as
// one process. The one-process figure is the last `--db` run's (bench/results/postgres.json),
// so run that first; both baselines are printed beside it, to show whether the machine changed
// between the two runs.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { measuredOf, type Outcome } from './measure.js';
import { ROOT } from './result-files.js';
import type { ScenarioResult } from './run-scenarios.js';
import { POSTGRES_WORKERS_LEAST } from './targets.js';

export interface WorkersCheck {
  readonly workers: number;
  /** Creates/s of the project with N workers and of the one-process run, and their baselines. */
  readonly project: { readonly workers: number; readonly oneProcess: number };
  readonly baseline: { readonly thisRun: number; readonly oneProcessRun: number };
  readonly oneProcessRunAt: string;
  readonly ratio: number;
  readonly least: number;
  readonly met: boolean;
}

const createsPerSecond = (results: readonly ScenarioResult[], side: 'project' | 'baseline'): number | undefined => {
  const create = results.find((result) => result.id === 'create');
  return measuredOf(create?.medians[side] as Outcome | undefined)?.requestsPerSecond;
};

/** Undefined when this run or the one-process run has no create figures. */
export function checkWorkers(workers: number, results: readonly ScenarioResult[]): WorkersCheck | undefined {
  const file = join(ROOT, 'bench/results/postgres.json');
  if (!existsSync(file)) return undefined;
  const oneProcessRun = JSON.parse(readFileSync(file, 'utf8')) as { when: string; scenarios: ScenarioResult[] };
  const project = { workers: createsPerSecond(results, 'project'), oneProcess: createsPerSecond(oneProcessRun.scenarios, 'project') };
  const baseline = { thisRun: createsPerSecond(results, 'baseline'), oneProcessRun: createsPerSecond(oneProcessRun.scenarios, 'baseline') };
  if (project.workers === undefined || project.oneProcess === undefined || baseline.thisRun === undefined || baseline.oneProcessRun === undefined) {
    return undefined;
  }
  const ratio = project.workers / project.oneProcess;
  return {
    workers,
    project: { workers: project.workers, oneProcess: project.oneProcess },
    baseline: { thisRun: baseline.thisRun, oneProcessRun: baseline.oneProcessRun },
    oneProcessRunAt: oneProcessRun.when,
    ratio,
    least: POSTGRES_WORKERS_LEAST,
    met: ratio >= POSTGRES_WORKERS_LEAST,
  };
}

export const workersLine = (check: WorkersCheck | undefined, workers: number): string =>
  check === undefined
    ? `${workers} workers against one process: not judged (run \`npm run bench -- --db=… --only=create\` without --workers first)`
    : `${check.workers} workers against one process (run of ${check.oneProcessRunAt}): ${Math.round(check.project.workers)} ÷ ` +
      `${Math.round(check.project.oneProcess)} creates/s = ${check.ratio.toFixed(2)}× (target ≥ ${check.least.toFixed(1)}×: ` +
      `${check.met ? 'met' : 'missed'}); the baseline made ${Math.round(check.baseline.thisRun)} creates/s in this run and ` +
      `${Math.round(check.baseline.oneProcessRun)} in that one`;
