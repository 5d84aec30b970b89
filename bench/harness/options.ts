// The bench's settings, from command-line flags (`npm run bench -- --quick`) or BENCH_* variables.
import { resolve } from 'node:path';
import { SCENARIOS } from '../scenarios/scenarios.js';
import { REFERENCES, type ReferenceName } from '../servers/servers.js';

export type BenchMode = 'full' | 'quick' | 'scale';

/** An --outage run: creates a second, and the seconds of each of its windows. */
export interface OutageOptions {
  readonly rate: number;
  /** Phase 1: the load before NATS is stopped, the outage, the load after NATS is back. */
  readonly beforeS: number;
  readonly outageS: number;
  readonly afterS: number;
  /** Phase 2: the load with the endpoint fast, then as long with it slow. */
  readonly slowS: number;
  /** PETSTORE_WEBHOOK_CONCURRENCY of the project (its default when absent). */
  readonly webhookConcurrency?: number;
}

export interface BenchOptions {
  readonly mode: BenchMode;
  /** Pets seeded for the scenario run. */
  readonly pets: number;
  /** The two sizes of the scale check: the deep page and the status filter at each. */
  readonly scalePets: readonly [number, number];
  /** Measured seconds per scenario and server, after `warmupSeconds` that are not measured. */
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly connections: number;
  /** Scenario ids to run (all when empty). */
  readonly only: readonly string[];
  /** Alternating measurements of every server per scenario; the median of each side is reported. */
  readonly rounds: number;
  /** The references measured beside the project, in the order of the rounds (all by default). */
  readonly references: readonly ReferenceName[];
  /** PETSTORE_WORKERS of the project server (the references are always one process). */
  readonly workers: number;
  /** A postgres:// URL: run the scenarios on PostgreSQL, in databases the bench creates on that server (absent: SQLite). */
  readonly database?: string;
  /** Also measure creates with the project's events off and relayed to NATS JetStream, in the same rounds (--events). */
  readonly events: boolean;
  /** Another build of the project (a checkout of an earlier commit, built), measured in the same rounds (--against). */
  readonly against?: string;
  /** Also measure get by id with a JWT access token instead of the API key, in the same rounds (--jwt). */
  readonly jwt: boolean;
  /** Instead of the scenarios, the change events through a NATS outage and a slow webhook endpoint (--outage). */
  readonly outage?: OutageOptions;
  /** Also measure get by id with every request traced to an OTLP/HTTP sink, in the same rounds (--tracing). */
  readonly tracing: boolean;
}

export const USAGE = `npm run bench -- [options]
  --quick              smoke run: 10,000 pets, 1 round of 2 s per scenario and server, 1 s warm-up
  --scale              scale check: status filter and deep page at 10,000 and 1,000,000 pets,
                       the project and the baseline only
  --pets=N             pets to seed (default 100000; e.g. 1000000)      env BENCH_PETS
  --duration=S         measured whole seconds per scenario (default 8)  env BENCH_DURATION
  --warmup=S           unmeasured warm-up whole seconds (default 2)     env BENCH_WARMUP
  --connections=N      concurrent connections of wrk (default 32)       env BENCH_CONNECTIONS
  --only=ID,ID         only these scenarios (list-20, status-sold-100, deep-page, get-by-id, create, patch-status,
                       place-order, inventory);
                       a partial run writes bench/results/partial.* and leaves the docs alone
  --references=R,R     the references measured beside the project (default all: baseline,koa-floor,card-floor);
                       fewer make a shorter, partial run                env BENCH_REFERENCES
  --rounds=N           alternating rounds of every server per scenario;
                       the median of each side is reported (default 3, quick 1) env BENCH_ROUNDS
  --workers=N          run the project with PETSTORE_WORKERS=N (default 1); CPU and RSS are those of
                       all its processes; writes bench/results/workers-N.* and leaves the docs alone
                                                                        env BENCH_WORKERS
  --db=URL             run the scenarios on PostgreSQL instead of SQLite: URL (postgres://user@host:port/database)
                       names a server and a database to connect to first, where the user may CREATE DATABASE;
                       every server gets its own seeded copy (bench_* databases, dropped at the end), the
                       project with PETSTORE_DB set to it. The references are the PostgreSQL baseline
                       (node:http + one pg pool of the project's default size) unless --references names more.
                       pg_stat_activity is sampled every 20 ms while each server is measured (waits on the
                       advisory lock, on the WAL flush). With --workers=N, the project with one process runs
                       in the same rounds, and the project's figures are divided by its own. Writes bench/results/postgres.*
                       (postgres-workers-N.* with --workers) and leaves the docs alone; not with --scale  env BENCH_DB
  --events             the change events' cost: in the rounds of create, the project twice more, with PETSTORE_EVENTS=off
                       and with PETSTORE_NATS_URL set to a nats-server -js the bench starts on a free port of 127.0.0.1
                       with a temp store (removed at the end); reports both creates/s and their ratio (target: JetStream
                       ≥ 0.85 × events off), and, from a probe making one create every 20 ms while JetStream is measured,
                       the delay from each 201 to its event on petstore.pet.created (p50, p99, probes never seen).
                       Nothing else changes; writes bench/results/*-events.* (events.* for a full run) and leaves
                       the docs alone; SQLite only (not with --db or --scale)
  --against=DIR        also measure, in the same rounds, the project as built in DIR: a checkout of another
                       commit with its own node_modules, after "npm run build" there. Its database is seeded
                       by that build and upgraded in place by this one, so DIR must be an earlier commit;
                       the project's figures are also divided by its. Writes bench/results/partial.* (or
                       quick.*, postgres.* with --db) and leaves the docs alone; not with --scale  env BENCH_AGAINST
  --jwt                JWT access tokens' cost: in the rounds of get-by-id, the project once more with PETSTORE_JWT_ISSUER
                       and PETSTORE_JWT_AUDIENCE set to an issuer the bench starts on a free port of 127.0.0.1 (discovery,
                       a JWKS of one RS256 key), each request carrying one token instead of the API key; reports both
                       req/s and their ratio (target: JWT ≥ 0.9 × API key). Writes bench/results/*-jwt.* (jwt.* for a full
                       run) and leaves the docs alone; SQLite only (not with --db or --scale)
  --tracing            tracing's cost: in the rounds of get-by-id, the project once more with OTEL_EXPORTER_OTLP_ENDPOINT
                       set to an OTLP/HTTP sink the bench starts on a free port of 127.0.0.1 (it answers 200 to POST
                       /v1/traces and counts requests and bytes) and OTEL_TRACES_SAMPLER=always_on; reports both req/s,
                       CPU per request and their ratios (target: tracing on ≥ 0.75 × off). Writes bench/results/*-tracing.*
                       (tracing.* for a full run) and leaves the docs alone; SQLite only (not with --db or --scale)
  --outage             instead of the scenarios, each transport at its own pace: the project with its events to a nats-server
                       the bench starts and to a webhook endpoint of the bench's on 127.0.0.1, under an open-loop load of
                       creates (every 10th pet then renamed twice). Phase 1, the endpoint answering in 20 ms: NATS killed
                       after --outage-before seconds and started again --outage-for seconds later, then --outage-after
                       seconds more; reports from each 201 to the endpoint's 2xx (p50, p99, max; target p99 ≤ 2 s) and
                       whether the stream then holds every event once, each pet's in commit order. Phase 2, a fresh server,
                       NATS up: --slow-for seconds with the endpoint answering in 20 ms, then as long in 5 s; reports from
                       each 201 to its event in the stream in each. With --db, on PostgreSQL. With --quick, 5 s, 10 s,
                       10 s and 10 s. Writes bench/results/outage*.* and leaves the docs alone
  --rate=N             --outage: creates a second (default 200)
  --outage-before=S    --outage: seconds of load before NATS is stopped (default 10)
  --outage-for=S       --outage: seconds NATS is stopped (default 60)
  --outage-after=S     --outage: seconds of load after NATS is back (default 20)
  --slow-for=S         --outage: seconds of phase 2 with the endpoint fast, and as many with it slow (default 20)
  --webhook-concurrency=N  --outage: the project's PETSTORE_WEBHOOK_CONCURRENCY (default: the project's default)`;

/** Every number of the bench is a positive integer: seconds too, since wrk counts no fractions of them. */
export function positive(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, not "${text}"`);
  return value;
}

/** The comma-separated names in `text`, each one of `known`. */
export function namesFrom(text: string | undefined, known: readonly string[], what: string): string[] {
  const names = (text ?? '').split(',').filter((name) => name !== '');
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) throw new Error(`unknown ${what} ${unknown.join(', ')}; known: ${known.join(', ')}`);
  return names;
}

/** The --db URL (absent when not given), or why it is not a postgres:// URL. */
function postgresUrl(text: string | undefined): string | undefined {
  if (text === undefined || text === '') return undefined;
  if (!/^postgres(ql)?:\/\//i.test(text) || !URL.canParse(text))
    throw new Error('--db must be a postgres:// (postgresql://) URL, such as postgres://postgres@127.0.0.1:5432/test');
  return text;
}

export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): BenchOptions {
  const flags = new Map<string, string>();
  for (const arg of argv) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (match === null) throw new Error(`unknown argument "${arg}"\n${USAGE}`);
    flags.set(match[1]!, match[2] ?? '');
  }
  const known = [
    'quick',
    'scale',
    'pets',
    'duration',
    'warmup',
    'connections',
    'only',
    'references',
    'rounds',
    'workers',
    'db',
    'events',
    'against',
    'jwt',
    'tracing',
    'outage',
    'rate',
    'outage-before',
    'outage-for',
    'outage-after',
    'slow-for',
    'webhook-concurrency',
    'help',
  ];
  for (const name of flags.keys()) if (!known.includes(name)) throw new Error(`unknown option --${name}\n${USAGE}`);
  if (flags.has('help')) throw new Error(USAGE);
  if (flags.has('quick') && flags.has('scale')) throw new Error('--quick and --scale are two different runs; pick one');

  const value = (flag: string, variable: string): string | undefined => flags.get(flag) ?? env[variable];
  const only = namesFrom(
    flags.get('only'),
    SCENARIOS.map((s) => s.id),
    'scenario',
  );
  if (flags.get('db') === '') throw new Error('--db needs a URL: --db=postgres://user@host:port/database');
  const database = postgresUrl(value('db', 'BENCH_DB'));
  const named = namesFrom(value('references', 'BENCH_REFERENCES'), REFERENCES, 'reference');
  // In the order of REFERENCES whatever the order given, so the rounds always take turns alike.
  // On PostgreSQL the baseline alone by default: the floors only add Koa, the same on either database.
  const references =
    named.length === 0 ? (database === undefined ? REFERENCES : (['baseline'] as const)) : REFERENCES.filter((r) => named.includes(r));

  const mode: BenchMode = flags.has('quick') ? 'quick' : flags.has('scale') ? 'scale' : 'full';
  if (database !== undefined && mode === 'scale') throw new Error('--db runs the scenarios only: not with --scale');
  const events = flags.has('events');
  if (events && (database !== undefined || mode === 'scale'))
    throw new Error('--events measures creates on SQLite: not with --db or --scale');
  if (events && only.length > 0 && !only.includes('create')) throw new Error('--events measures the create scenario: add it to --only');
  const against = value('against', 'BENCH_AGAINST');
  if (against !== undefined && mode === 'scale') throw new Error('--against compares the scenarios: not with --scale');
  if (against === '') throw new Error('--against needs a folder: --against=/tmp/petstore-before');
  // The variants of the project measured beside it on get by id (project-variants.ts).
  const [jwt, tracing] = ['jwt', 'tracing'].map((flag) => {
    if (!flags.has(flag)) return false;
    if (database !== undefined || mode === 'scale') throw new Error(`--${flag} measures get by id on SQLite: not with --db or --scale`);
    if (only.length > 0 && !only.includes('get-by-id')) throw new Error(`--${flag} measures the get-by-id scenario: add it to --only`);
    return true;
  }) as [boolean, boolean];
  const quick = mode === 'quick';
  const outage = outageOptions(flags, quick);
  return {
    mode,
    pets: positive('--pets', value('pets', 'BENCH_PETS'), quick || outage !== undefined ? 10_000 : 100_000),
    scalePets: [10_000, 1_000_000],
    durationSeconds: positive('--duration', value('duration', 'BENCH_DURATION'), quick ? 2 : 8),
    warmupSeconds: positive('--warmup', value('warmup', 'BENCH_WARMUP'), quick ? 1 : 2),
    connections: positive('--connections', value('connections', 'BENCH_CONNECTIONS'), 32),
    only,
    rounds: positive('--rounds', value('rounds', 'BENCH_ROUNDS'), quick ? 1 : 3),
    references,
    workers: positive('--workers', value('workers', 'BENCH_WORKERS'), 1),
    ...(database !== undefined && { database }),
    events,
    ...(against !== undefined && { against: resolve(against) }),
    jwt,
    tracing,
    ...(outage !== undefined && { outage }),
  };
}

/** The flags that only an --outage run takes, and those of the scenarios that it does not. */
const OUTAGE_FLAGS = ['rate', 'outage-before', 'outage-for', 'outage-after', 'slow-for', 'webhook-concurrency'];
const NOT_WITH_OUTAGE = [
  'scale',
  'only',
  'references',
  'rounds',
  'duration',
  'warmup',
  'connections',
  'workers',
  'events',
  'against',
  'jwt',
  'tracing',
];

/** The --outage run's settings; undefined without --outage, whose own flags are then refused. */
function outageOptions(flags: ReadonlyMap<string, string>, quick: boolean): OutageOptions | undefined {
  if (!flags.has('outage')) {
    const stray = OUTAGE_FLAGS.find((name) => flags.has(name));
    if (stray !== undefined) throw new Error(`--${stray} is an option of --outage`);
    return undefined;
  }
  const clash = NOT_WITH_OUTAGE.find((name) => flags.has(name));
  if (clash !== undefined) throw new Error(`--outage runs no scenario: not with --${clash}`);
  const seconds = (name: string, full: number, short: number): number => positive(`--${name}`, flags.get(name), quick ? short : full);
  return {
    rate: positive('--rate', flags.get('rate'), 200),
    beforeS: seconds('outage-before', 10, 5),
    outageS: seconds('outage-for', 60, 10),
    afterS: seconds('outage-after', 20, 10),
    slowS: seconds('slow-for', 20, 10),
    ...(flags.has('webhook-concurrency') && { webhookConcurrency: positive('--webhook-concurrency', flags.get('webhook-concurrency'), 0) }),
  };
}
