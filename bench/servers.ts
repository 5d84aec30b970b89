// The two servers under test: the compiled project in production mode, and the baseline.
import { join } from 'node:path';
import type { ServerCommand } from './server-process.js';

export type ServerName = 'project' | 'baseline';

/** The one API key of the bench (any ≥ 16 characters of the bearer token syntax). */
export const BENCH_API_KEY = 'bench-key-0123456789abcdef';
export const AUTH_HEADERS = { authorization: `Bearer ${BENCH_API_KEY}` };

export interface ProfileRequest {
  readonly dir: string;
  readonly name: string;
}

export function projectCommand(root: string, database: string, profile?: ProfileRequest, workers = 1): ServerCommand {
  const profiling = profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profile.dir}`, `--cpu-prof-name=${profile.name}`];
  return {
    label: 'the project server',
    cwd: root,
    nodeArgs: [...profiling, join(root, 'dist/main.js')],
    env: {
      PETSTORE_DB: database,
      PETSTORE_API_KEYS: BENCH_API_KEY,
      PETSTORE_LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      PETSTORE_WORKERS: String(workers),
    },
  };
}

/** `script` is bench/baseline-server.ts compiled to JavaScript (see baseline-build.ts). */
export function baselineCommand(root: string, script: string, database: string): ServerCommand {
  return {
    label: 'the baseline server',
    cwd: root,
    nodeArgs: [script],
    env: { PETSTORE_DB: database, PETSTORE_API_KEYS: BENCH_API_KEY, NODE_ENV: 'production' },
  };
}

/** The baseline's handler served through a bare Koa app (`--koa-floor`): the least any Koa server can cost. */
export function koaFloorCommand(root: string, script: string, database: string): ServerCommand {
  const baseline = baselineCommand(root, script, database);
  return { ...baseline, label: 'the baseline inside Koa', env: { ...baseline.env, BASELINE_IN_KOA: '1' } };
}
