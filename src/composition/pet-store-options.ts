// createPetStore's options, and their check at the edge: one io-ts codec over every option that
// is a setting, built from the codecs that loadConfig reads the environment with, so an option
// is refused exactly when its environment variable would be, with a TypeError naming it.
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { Redis } from 'ioredis';
import { type Logger, pino } from 'pino';
import type { HttpAppOptions } from '../adapters/http/create-http-app.js';
import { CONFIG_DEFAULTS, PG_POOL_SIZE_RANGE } from '../config/config.js';
import { type DatabaseConfig, type DatabaseLocation, paddedNameProblem, parseDatabase, withPoolSize } from '../config/database-config.js';
import { JwtAudience, JwtIssuer, JwtJwksUrl } from '../config/jwt-config.js';
import { DEFAULT_REDIS_KEY_PREFIX, parseRedisUrl, redisKeyPrefixProblem } from '../config/redis-config.js';
import {
  BODY_LIMIT_BYTES_RANGE,
  checkedText,
  CorsOrigin,
  EVENT_RETENTION_HOURS_RANGE,
  WEBHOOK_CONCURRENCY_RANGE,
  EventSource,
  fromText,
  integerIn,
  MetricsAccessValue,
  NatsStream,
  NatsUrl,
  RequestsPerWindowValue,
} from '../config/setting-codecs.js';
import { apiKeyProblem, describeFailures } from '../domain/index.js';
import { exactObject, withMessage } from '../domain/codec.js';
import { AdaptersOption, LoggerOption, RedisClientOption } from './caller-object-options.js';
import { adaptersProblem, type ContainerOptions, type EventsOptions, type PetStoreAdapters } from './container-options.js';

/** How {@link createPetStore} builds the service. Every option may be left out. */
export interface PetStoreOptions {
  /**
   * Where pets, idempotency records and stored API keys are kept, as `PETSTORE_DB` takes it:
   * `'memory'` (the default: nothing is kept, no file is made), `':memory:'` (SQLite in
   * memory), the path of a SQLite file, or a `postgres://` URL; or a {@link DatabaseConfig}.
   */
  readonly db?: string | DatabaseConfig;
  /** With PostgreSQL, the most connections the pool opens (default 10). */
  readonly postgresPoolSize?: number;
  /**
   * API keys accepted as they are (each at least 16 characters of the bearer token alphabet),
   * besides the keys stored in the database. None by default: then only stored keys are
   * accepted, so create one with `apiKeys.create()` of the answer.
   */
  readonly apiKeys?: readonly string[];
  /** A pino logger for the service's logs; silent by default. */
  readonly logger?: Logger;
  /**
   * Options of the HTTP adapter: body limit (an integer from 1 to 64 MiB), CORS origins, rate
   * limits, /metrics access, each checked as its environment variable is.
   */
  readonly http?: HttpAppOptions;
  /**
   * Redis, to share the counts of the rate limits (`http.rateLimit`, `http.authFailureLimit`)
   * with every instance using the same Redis and key prefix, as `PETSTORE_REDIS_URL` takes it:
   * a `redis://` (or `rediss://`) URL, connected now and disconnected by `close()`; or an
   * ioredis client of yours, used as it is and never closed (make it with
   * `enableOfflineQueue: false` and a `commandTimeout`). Without it each process counts alone.
   * While Redis cannot be reached, each process limits alone, and the outage is logged once.
   */
  readonly redis?: string | Redis;
  /** What every key written in Redis begins with (default `petstore`), so that services can share one Redis. */
  readonly redisKeyPrefix?: string;
  /**
   * Your own adapters for any of the ports, used instead of those chosen from `db`;
   * `petRepository` and `idempotencyStore` only together. A `petRepository` of yours records
   * no change events: only the repository chosen from `db` is made with the outbox.
   */
  readonly adapters?: Partial<PetStoreAdapters>;
  /**
   * The change events (on by default): recorded with every change, relayed in this process to
   * `events.subscribe`rs, and to NATS JetStream when `events.nats` names one.
   */
  readonly events?: EventsOptions;
  /**
   * An identity provider whose JWT access tokens are accepted beside the API keys, as
   * `PETSTORE_JWT_ISSUER`, `PETSTORE_JWT_AUDIENCE` and `PETSTORE_JWT_JWKS_URL` take it.
   */
  readonly jwt?: { readonly issuer: string; readonly audience: string; readonly jwksUrl?: string };
  /**
   * OpenTelemetry traces (off by default: the SDK is then never loaded). With `true`, the store
   * starts OpenTelemetry's SDK, which reads its `OTEL_*` variables from `process.env` (the OTLP
   * endpoint, the service name, the sampler) and exports over OTLP/HTTP: a span per request and
   * per use case, and each change's event keeps the trace context of its use case's span.
   * `close()` exports the spans that wait.
   */
  readonly tracing?: boolean;
}

/** A list of `item`s; anything but an array is refused with `message`. */
const listOf = <A>(name: string, item: t.Type<A, unknown, unknown>, message: string) =>
  new t.Type<readonly A[], unknown, unknown>(
    name,
    (_u): _u is readonly A[] => false,
    (u, c) => (Array.isArray(u) ? t.readonlyArray(item).validate(u, c) : t.failure(u, c, message)),
    (a) => a,
  );

const PostgresUrl = fromText('PostgresUrl', (text) => {
  const location = parseDatabase(text);
  return E.isRight(location) && location.right.kind === 'postgres'
    ? E.right(location.right.url)
    : E.left('must be a postgres:// (postgresql://) URL');
});

const DATABASE_KINDS: Readonly<Record<DatabaseConfig['kind'], t.Mixed>> = {
  memory: exactObject('MemoryDatabase', { kind: t.literal('memory') }, {}),
  sqlite: exactObject(
    'SqliteDatabase',
    {
      kind: t.literal('sqlite'),
      path: checkedText('SqlitePath', (path) => (path.trim() === '' ? 'must be the path of a SQLite file' : paddedNameProblem(path))),
    },
    {},
  ),
  postgres: exactObject(
    'PostgresDatabase',
    { kind: t.literal('postgres'), url: PostgresUrl, poolSize: integerIn('PoolSize', PG_POOL_SIZE_RANGE) },
    {},
  ),
};

// The text PETSTORE_DB takes, or a DatabaseConfig of one of the three kinds.
const Database = new t.Type<DatabaseLocation | DatabaseConfig, unknown, unknown>(
  'Database',
  (_u): _u is DatabaseConfig => false,
  (u, c) => {
    if (typeof u === 'string') return fromText<DatabaseLocation>('Database', parseDatabase).validate(u, c);
    const kind: unknown = typeof u === 'object' && u !== null ? (u as { kind?: unknown }).kind : undefined;
    const codec =
      typeof kind === 'string' && Object.hasOwn(DATABASE_KINDS, kind) ? DATABASE_KINDS[kind as DatabaseConfig['kind']] : undefined;
    return codec === undefined
      ? t.failure(
          u,
          c,
          'must be "memory", ":memory:", a SQLite path, a postgres:// URL, or a DatabaseConfig of kind memory, sqlite or postgres',
        )
      : codec.validate(u, c);
  },
  (a) => a,
);

// A client is used as it is.
const RedisConnection = new t.Type<string | Redis, unknown, unknown>(
  'Redis',
  (_u): _u is Redis => false,
  (u, c) => (typeof u === 'string' ? fromText('RedisUrl', parseRedisUrl) : RedisClientOption).validate(u, c),
  (a) => a,
);

const Options = exactObject(
  'PetStoreOptions',
  {},
  {
    db: Database,
    postgresPoolSize: integerIn('PoolSize', PG_POOL_SIZE_RANGE),
    apiKeys: listOf('ApiKeys', checkedText('ApiKey', apiKeyProblem), 'must be an array of API keys'),
    http: exactObject(
      'HttpOptions',
      {},
      {
        bodyLimitBytes: integerIn('BodyLimitBytes', BODY_LIMIT_BYTES_RANGE),
        corsOrigins: listOf('CorsOrigins', CorsOrigin, 'must be an array of origins'),
        rateLimit: RequestsPerWindowValue,
        authFailureLimit: RequestsPerWindowValue,
        metrics: MetricsAccessValue,
      },
    ),
    redis: RedisConnection,
    redisKeyPrefix: checkedText('RedisKeyPrefix', redisKeyPrefixProblem),
    events: exactObject(
      'EventsOptions',
      {},
      {
        enabled: withMessage(t.boolean, 'must be true or false'),
        source: EventSource,
        retentionHours: integerIn('EventRetentionHours', EVENT_RETENTION_HOURS_RANGE),
        webhookConcurrency: integerIn('WebhookConcurrency', WEBHOOK_CONCURRENCY_RANGE),
        nats: exactObject('NatsOptions', { url: NatsUrl }, { stream: NatsStream }),
      },
    ),
    jwt: exactObject('JwtOptions', { issuer: JwtIssuer, audience: JwtAudience }, { jwksUrl: JwtJwksUrl }),
    tracing: withMessage(t.boolean, 'must be true or false'),
    logger: LoggerOption,
    adapters: AdaptersOption,
  },
);

/** An option's name as a caller writes it: `http.rateLimit.requests`, `apiKeys[1]`. */
const optionName = (pointer: string): string =>
  pointer
    .split('/')
    .slice(1)
    .map((segment, index) => (/^[0-9]+$/.test(segment) ? `[${segment}]` : index === 0 ? segment : `.${segment}`))
    .join('');

/**
 * The container's options for `options`, each checked as its environment variable is.
 *
 * @throws TypeError naming every invalid option (never a key, a password or a URL)
 */
export function containerOptionsOf(options: PetStoreOptions): ContainerOptions {
  // Checked before any option is read: a call from JavaScript may pass anything.
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError('createPetStore: options must be an object');
  }
  const decoded = Options.decode(options);
  const adaptersRefused = adaptersProblem(options.adapters ?? {});
  const problems = [
    ...(E.isLeft(decoded) ? describeFailures(decoded.left).map(({ pointer, message }) => `${optionName(pointer)} ${message}`) : []),
    ...(adaptersRefused === undefined ? [] : [adaptersRefused]),
  ];
  if (E.isLeft(decoded) || problems.length > 0) throw new TypeError(`createPetStore: ${problems.join('; ')}`);
  const {
    db = { kind: 'memory' },
    postgresPoolSize = CONFIG_DEFAULTS.PETSTORE_PG_POOL_SIZE,
    apiKeys = [],
    http = {},
    events,
    jwt,
    tracing,
    adapters = {},
    logger = pino({ level: 'silent' }),
  } = decoded.right;
  return {
    // A DatabaseConfig given keeps its own pool size; a database named by text gets postgresPoolSize.
    database: 'poolSize' in db ? (db as DatabaseConfig) : withPoolSize(db, postgresPoolSize),
    apiKeys,
    logger,
    http,
    adapters,
    ...(options.redis === undefined
      ? {}
      : { redis: { connection: options.redis, keyPrefix: decoded.right.redisKeyPrefix ?? DEFAULT_REDIS_KEY_PREFIX } }),
    ...(events === undefined ? {} : { events }),
    ...(jwt === undefined ? {} : { jwt }),
    ...(tracing === undefined ? {} : { tracing }),
  };
}
