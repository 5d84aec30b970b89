// The servers under test: the compiled project in production mode, and the references it is
// measured against, each the baseline's own handler (bench/servers/baseline-server.ts) served another way.
import { join } from 'node:path';
import type { NatsTarget } from '../harness/event-probe.js';
import type { ServerCommand } from '../harness/server-process.js';

export type ReferenceName = 'baseline' | 'koa-floor' | 'card-floor';
/**
 * `one-process`: the project itself with one process, measured beside its workers (--db --workers=N).
 * `events-off` and `jetstream`: the project with PETSTORE_EVENTS=off, and with its events relayed to
 * NATS JetStream, measured on creates beside the others (--events). `earlier`: the project as
 * another checkout builds it, an earlier commit (--against).
 * `jwt`: the project taking JWT access tokens, its requests carrying one instead of the API key (--jwt).
 * `tracing`: the project tracing every request to an OTLP/HTTP sink (--tracing).
 */
export type ServerName = 'project' | ReferenceName | 'one-process' | 'events-off' | 'jetstream' | 'earlier' | 'jwt' | 'tracing';
/** What the project's figures are divided by. */
export type ComparedName = Exclude<ServerName, 'project'>;

/** In the order of the rounds, after the project. */
export const REFERENCES: readonly ReferenceName[] = ['baseline', 'koa-floor', 'card-floor'];

/** What hands each reference's requests to the baseline's handler: BASELINE_SERVED_BY of baseline-server.ts. */
const SERVED_BY: Readonly<Record<ReferenceName, { readonly value: string; readonly label: string }>> = {
  baseline: { value: 'node', label: 'the baseline (node:http)' },
  'koa-floor': { value: 'koa', label: 'the Koa floor (the baseline inside a bare Koa app)' },
  'card-floor': { value: 'koa-router', label: 'the card floor (the baseline behind Koa and @koa/router)' },
};

/**
 * SQLite's `synchronous` setting of the references: FULL, as the project's openSqliteDatabase
 * sets it, so that every create of either waits for its fsync and their ratio compares like with like.
 */
export const REFERENCE_SYNCHRONOUS = 'FULL';

/** Whether a server's `database` is a PostgreSQL URL (else a SQLite file). */
export const isPostgresUrl = (database: string): boolean => /^postgres(ql)?:\/\//i.test(database);

/** The one API key of the bench (any ≥ 16 characters of the bearer token syntax). */
export const BENCH_API_KEY = 'bench-key-0123456789abcdef';
export const AUTH_HEADERS = { authorization: `Bearer ${BENCH_API_KEY}` };

export interface ProjectSetup {
  readonly database: string;
  /** Where its standard output, the JSON log lines, is appended, as an operator's log capture would. */
  readonly logFile: string;
  /** PETSTORE_WORKERS (1 when absent). */
  readonly workers?: number;
  /**
   * Its change events: `off` (PETSTORE_EVENTS=off: none recorded), or relayed to this nats-server's
   * JetStream (PETSTORE_NATS_URL). Absent: the default, recorded in the outbox and relayed nowhere.
   */
  readonly events?: 'off' | NatsTarget;
  /** Settings beyond the default, of a variant measured beside it (bench/harness/project-variants.ts). */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * The project at its default configuration but for the database and the key: its log level
 * stays `info`, so the request log line of every request is written while it is measured.
 */
export function projectCommand(root: string, { database, logFile, workers = 1, events, env }: ProjectSetup): ServerCommand {
  return {
    label: 'the project server',
    cwd: root,
    nodeArgs: [join(root, 'dist/main.js')],
    env: {
      PETSTORE_DB: database,
      PETSTORE_API_KEYS: BENCH_API_KEY,
      NODE_ENV: 'production',
      PETSTORE_WORKERS: String(workers),
      ...(events === 'off' && { PETSTORE_EVENTS: 'off' }),
      ...(typeof events === 'object' && { PETSTORE_NATS_URL: events.url }),
      ...env,
    },
    stdoutFile: logFile,
    ...(isPostgresUrl(database) && { postgresUrl: database }),
    ...(typeof events === 'object' && { nats: events }),
  };
}

/** With --against, the project as another checkout (`root`) builds it: the `earlier` server of the rounds. */
export const earlierCommand = (root: string, setup: ProjectSetup): ServerCommand => ({
  ...projectCommand(root, setup),
  label: `the project built in ${root}`,
});

/** How a reference is run beyond its database. */
export interface ReferenceSetup {
  /** On PostgreSQL, the size of its one pool (BASELINE_PG_POOL_SIZE): the project's default, so both may hold as many connections. */
  readonly poolSize?: number;
}

/** `database` is a SQLite file or a postgres:// URL; `script` is bench/servers/baseline-server.ts compiled to JavaScript (see baseline-build.ts). */
export function referenceCommand(
  reference: ReferenceName,
  root: string,
  script: string,
  database: string,
  { poolSize }: ReferenceSetup = {},
): ServerCommand {
  return {
    label: SERVED_BY[reference].label,
    cwd: root,
    nodeArgs: [script],
    env: {
      PETSTORE_DB: database,
      PETSTORE_API_KEYS: BENCH_API_KEY,
      NODE_ENV: 'production',
      BASELINE_SERVED_BY: SERVED_BY[reference].value,
      BASELINE_SYNCHRONOUS: REFERENCE_SYNCHRONOUS,
      ...(poolSize !== undefined && { BASELINE_PG_POOL_SIZE: String(poolSize) }),
    },
    ...(isPostgresUrl(database) && { postgresUrl: database }),
  };
}
