// The environment → a typed, validated configuration. Every variable is checked at start,
// and a bad value stops the process with a message naming the variable. It knows no adapter:
// its values are plain settings, which the composition root hands to the adapters
// (containerOptionsFrom), where the compiler checks that they fit.
import * as E from 'fp-ts/lib/Either.js';
import { type DatabaseConfig, type DatabaseLocation, isInProcessMemory, parseDatabase, withPoolSize } from './database-config.js';
import { apiKeyProblem } from '../domain/api-key.js';
import { exactObject } from '../domain/codec.js';
import { describeFailures } from '../domain/validation.js';
import { EVENTS_DEFAULTS, type EventsConfig } from './events-config.js';
import { JwtAudience, type JwtConfig, jwtConfigOf, JwtIssuer, JwtJwksUrl } from './jwt-config.js';
import { DEFAULT_REDIS_KEY_PREFIX, parseRedisUrl, redisKeyPrefixProblem } from './redis-config.js';
import {
  CategoriesSetting,
  checkedText,
  corsOriginProblem,
  EVENT_RETENTION_HOURS_RANGE,
  EventSource,
  fromText,
  type IntegerRange,
  integerProblem,
  type MetricsAccessSetting,
  MetricsAccessValue,
  NatsStream,
  NatsUrl,
  type RequestsPerWindow,
  WEBHOOK_CONCURRENCY_RANGE,
  RequestsPerWindowValue,
} from './setting-codecs.js';

export type { RequestsPerWindow } from './setting-codecs.js';

/** Every {@link LogLevel}, most severe first. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The pino log levels the service accepts, and `silent`. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The server's settings, as {@link loadConfig} reads them from the environment. */
export interface Config {
  readonly host: string;
  readonly port: number;
  readonly database: DatabaseConfig;
  /** Valid API keys; empty when none were configured (the server then generates one). */
  readonly apiKeys: readonly string[];
  readonly logLevel: LogLevel;
  /** Origins allowed by CORS; empty means CORS is off. */
  readonly corsOrigins: readonly string[];
  /** Requests per window and API key; undefined means no limit. */
  readonly rateLimit: RequestsPerWindow | undefined;
  /** Failed authentications per window and client address; undefined means no limit. */
  readonly authFailureLimit: RequestsPerWindow | undefined;
  /** The Redis that the instances share their rate-limit counts through; undefined: each process counts alone. */
  readonly redisUrl: string | undefined;
  /** What every key the service writes in Redis begins with. */
  readonly redisKeyPrefix: string;
  /** Who may read /metrics: anyone who reaches the port, only holders of an API key, or nobody. */
  readonly metrics: MetricsAccessSetting;
  /** Server processes sharing the port (node:cluster); 1 serves from this process alone. */
  readonly workers: number;
  /** The change events: the outbox, their envelope's source, their retention, the broker. */
  readonly events: EventsConfig;
  /** The identity provider whose JWT access tokens are accepted beside API keys; undefined: none. */
  readonly jwt: JwtConfig | undefined;
  /** Whether a pet's categoryId must name a category (`registered`) or may be any number (`open`). */
  readonly categories: 'open' | 'registered';
}

/** The value of each environment variable that is not set. */
export const CONFIG_DEFAULTS = {
  HOST: '127.0.0.1',
  PORT: 3000,
  PETSTORE_DB: './data/petstore.db',
  PETSTORE_PG_POOL_SIZE: 10,
  PETSTORE_LOG_LEVEL: 'info',
  PETSTORE_METRICS: 'open',
  PETSTORE_WORKERS: 1,
  PETSTORE_REDIS_PREFIX: DEFAULT_REDIS_KEY_PREFIX,
  PETSTORE_CATEGORIES: 'open',
} as const;

/**
 * The limit of failed authentications per client address when PETSTORE_RATE_LIMIT is set and
 * PETSTORE_AUTH_FAILURE_LIMIT is not: a client that fails 30 times a minute is not mistyping.
 */
export const DEFAULT_AUTH_FAILURE_LIMIT: RequestsPerWindow = { requests: 30, windowSeconds: 60 };

export const WORKERS_RANGE = { min: 1, max: 64 } as const;

export const PG_POOL_SIZE_RANGE = { min: 1, max: 1000 } as const;

/** Decimal digits (no sign, no more digits than `max` has) naming an integer from `min` to `max`. */
const integerFrom = (name: string, range: IntegerRange) => {
  const digits = new RegExp(`^[0-9]{1,${String(range.max).length}}$`);
  return fromText(name, (text) => {
    // Anything but such digits gets the message of a number out of range.
    const problem = integerProblem(digits.test(text) ? Number(text) : Number.NaN, range);
    return problem === undefined ? E.right(Number(text)) : E.left(problem);
  });
};

const Port = integerFrom('Port', { min: 0, max: 65535 });

const Host = fromText('Host', (text) =>
  /^[^\s/]+$/.test(text) ? E.right(text) : E.left('must be a host name or IP address, without spaces'),
);

// Read as createPetStore's `db` is, by the one parser of database-config.ts.
const Database = fromText<DatabaseLocation>('Database', parseDatabase);

const PoolSize = integerFrom('PoolSize', PG_POOL_SIZE_RANGE);

// Keys are never echoed back: a message names only the position of a bad key.
const ApiKeys = fromText('ApiKeys', (text) => {
  const keys = text
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
  for (const [index, key] of keys.entries()) {
    const problem = apiKeyProblem(key);
    if (problem !== undefined) return E.left(`key ${index + 1} ${problem}`);
  }
  return E.right(keys);
});

const Level = fromText('LogLevel', (text) =>
  (LOG_LEVELS as readonly string[]).includes(text) ? E.right(text as LogLevel) : E.left(`must be one of ${LOG_LEVELS.join(', ')}`),
);

const CorsOrigins = fromText('CorsOrigins', (text) => {
  const origins = text
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
  const refused = origins.find((origin) => corsOriginProblem(origin) !== undefined);
  return refused === undefined
    ? E.right(origins)
    : E.left(`must list origins such as https://app.example (no path, no trailing slash) or *; "${refused}" is not one`);
});

/** `<requests>/<seconds>` as a limit, or undefined when the text is not one. */
const requestsPerWindow = (text: string): RequestsPerWindow | undefined => {
  const match = /^([1-9][0-9]*)\/([1-9][0-9]*)$/.exec(text);
  const limit = RequestsPerWindowValue.decode(match === null ? undefined : { requests: Number(match[1]), windowSeconds: Number(match[2]) });
  return E.isRight(limit) ? limit.right : undefined;
};

const RateLimitSetting = fromText<RequestsPerWindow>('RateLimit', (text) =>
  E.fromNullable('must be <requests>/<seconds>, for example 100/60')(requestsPerWindow(text)),
);

// `off` is kept apart from unset: unset follows PETSTORE_RATE_LIMIT, `off` never limits.
const AuthFailureLimitSetting = fromText<RequestsPerWindow | 'off'>('AuthFailureLimit', (text) =>
  text === 'off' ? E.right('off') : E.fromNullable('must be <requests>/<seconds>, for example 30/60, or off')(requestsPerWindow(text)),
);

const RedisUrl = fromText('RedisUrl', parseRedisUrl);

const Workers = integerFrom('Workers', WORKERS_RANGE);

const Switch = fromText('Switch', (text) => (text === 'on' || text === 'off' ? E.right(text === 'on') : E.left('must be on or off')));

const EventRetentionHours = integerFrom('EventRetentionHours', EVENT_RETENTION_HOURS_RANGE);

const WebhookConcurrency = integerFrom('WebhookConcurrency', WEBHOOK_CONCURRENCY_RANGE);

const Environment = exactObject(
  'Environment',
  {},
  {
    HOST: Host,
    PORT: Port,
    PETSTORE_DB: Database,
    PETSTORE_PG_POOL_SIZE: PoolSize,
    PETSTORE_API_KEYS: ApiKeys,
    PETSTORE_LOG_LEVEL: Level,
    PETSTORE_CORS_ORIGINS: CorsOrigins,
    PETSTORE_RATE_LIMIT: RateLimitSetting,
    PETSTORE_AUTH_FAILURE_LIMIT: AuthFailureLimitSetting,
    PETSTORE_REDIS_URL: RedisUrl,
    PETSTORE_REDIS_PREFIX: checkedText('RedisKeyPrefix', redisKeyPrefixProblem),
    PETSTORE_METRICS: MetricsAccessValue,
    PETSTORE_WORKERS: Workers,
    PETSTORE_EVENTS: Switch,
    PETSTORE_EVENT_SOURCE: EventSource,
    PETSTORE_EVENT_RETENTION_HOURS: EventRetentionHours,
    PETSTORE_NATS_URL: NatsUrl,
    PETSTORE_NATS_STREAM: NatsStream,
    PETSTORE_WEBHOOK_CONCURRENCY: WebhookConcurrency,
    PETSTORE_JWT_ISSUER: JwtIssuer,
    PETSTORE_JWT_AUDIENCE: JwtAudience,
    PETSTORE_JWT_JWKS_URL: JwtJwksUrl,
    PETSTORE_CATEGORIES: CategoriesSetting,
  },
  'ignore',
);

/**
 * The limit of failed authentications: the one set, none when it is `off`, and otherwise the
 * default exactly when requests are rate limited. Off by default with the rest of rate
 * limiting, so a default start can be benchmarked, and a test sending many bad keys runs free.
 */
const authFailureLimitOf = (setting: RequestsPerWindow | 'off' | undefined, rateLimit: RequestsPerWindow | undefined) =>
  setting === 'off' ? undefined : (setting ?? (rateLimit === undefined ? undefined : DEFAULT_AUTH_FAILURE_LIMIT));

/** The configuration in `env`, or one line per invalid variable ("PORT must be …"). */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): E.Either<readonly string[], Config> {
  // An empty variable counts as unset, as shells make it easy to export one by accident.
  const set = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const decoded = Environment.decode(set);
  if (E.isLeft(decoded)) {
    return E.left(describeFailures(decoded.left).map(({ pointer, message }) => `${pointer.slice(1)} ${message}`));
  }
  const vars = decoded.right;
  const location = vars.PETSTORE_DB ?? { kind: 'sqlite', path: CONFIG_DEFAULTS.PETSTORE_DB };
  const workers = vars.PETSTORE_WORKERS ?? CONFIG_DEFAULTS.PETSTORE_WORKERS;
  // Each worker is a process of its own: in-memory data would differ from one worker to the next.
  if (workers > 1 && isInProcessMemory(location)) {
    return E.left([
      'PETSTORE_WORKERS must be 1 when PETSTORE_DB is memory or :memory: (each worker would hold data of its own); use a SQLite file or PostgreSQL',
    ]);
  }
  const jwt = jwtConfigOf(vars.PETSTORE_JWT_ISSUER, vars.PETSTORE_JWT_AUDIENCE, vars.PETSTORE_JWT_JWKS_URL);
  if (E.isLeft(jwt)) return E.left([jwt.left]);
  return E.right({
    host: vars.HOST ?? CONFIG_DEFAULTS.HOST,
    port: vars.PORT ?? CONFIG_DEFAULTS.PORT,
    // The pool size is checked whatever the database, but only PostgreSQL has a pool.
    database: withPoolSize(location, vars.PETSTORE_PG_POOL_SIZE ?? CONFIG_DEFAULTS.PETSTORE_PG_POOL_SIZE),
    apiKeys: vars.PETSTORE_API_KEYS ?? [],
    logLevel: vars.PETSTORE_LOG_LEVEL ?? CONFIG_DEFAULTS.PETSTORE_LOG_LEVEL,
    corsOrigins: vars.PETSTORE_CORS_ORIGINS ?? [],
    rateLimit: vars.PETSTORE_RATE_LIMIT,
    authFailureLimit: authFailureLimitOf(vars.PETSTORE_AUTH_FAILURE_LIMIT, vars.PETSTORE_RATE_LIMIT),
    redisUrl: vars.PETSTORE_REDIS_URL,
    redisKeyPrefix: vars.PETSTORE_REDIS_PREFIX ?? CONFIG_DEFAULTS.PETSTORE_REDIS_PREFIX,
    metrics: vars.PETSTORE_METRICS ?? CONFIG_DEFAULTS.PETSTORE_METRICS,
    workers,
    events: {
      enabled: vars.PETSTORE_EVENTS ?? EVENTS_DEFAULTS.PETSTORE_EVENTS === 'on',
      source: vars.PETSTORE_EVENT_SOURCE ?? EVENTS_DEFAULTS.PETSTORE_EVENT_SOURCE,
      retentionHours: vars.PETSTORE_EVENT_RETENTION_HOURS ?? EVENTS_DEFAULTS.PETSTORE_EVENT_RETENTION_HOURS,
      natsUrl: vars.PETSTORE_NATS_URL,
      natsStream: vars.PETSTORE_NATS_STREAM ?? EVENTS_DEFAULTS.PETSTORE_NATS_STREAM,
      webhookConcurrency: vars.PETSTORE_WEBHOOK_CONCURRENCY ?? EVENTS_DEFAULTS.PETSTORE_WEBHOOK_CONCURRENCY,
    },
    jwt: jwt.right,
    categories: vars.PETSTORE_CATEGORIES ?? CONFIG_DEFAULTS.PETSTORE_CATEGORIES,
  });
}
