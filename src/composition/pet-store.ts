// The service as a library, in one call: the composition root built from options rather
// than from the environment, with any port replaced by the caller's own adapter.
import 'reflect-metadata';
import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type { Container } from 'inversify';
import type { Redis } from 'ioredis';
import type Koa from 'koa';
import { type Logger, pino } from 'pino';
import type { ApiKeyAdmin } from '../domain/use-cases/api-key-admin.js';
import type { HttpAppOptions } from '../adapters/http/create-http-app.js';
import type { PetUseCases } from '../adapters/http/handlers/pet-handlers.js';
import type { EventSubscriber, InProcessSubscribers } from '../adapters/relay/in-process-subscribers.js';
import type { StartEventRelay } from './event-bindings.js';
import { CONFIG_DEFAULTS, integerProblem, PG_POOL_SIZE_RANGE } from '../config/config.js';
import { closeContainer, createContainer } from './container.js';
import {
  adaptersProblem,
  type ContainerOptions,
  type EventsOptions,
  type PetStoreAdapters,
  type RedisOptions,
} from './container-options.js';
import { type DatabaseConfig, parseDatabase, withPoolSize } from '../config/database-config.js';
import { apiKeyProblem, type ServiceState } from '../domain/index.js';
import { DEFAULT_REDIS_KEY_PREFIX, parseRedisUrl, redisKeyPrefixProblem } from '../config/redis-config.js';
import { TOKENS } from './tokens.js';

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
  /** Options of the HTTP adapter: body limit, CORS origins, rate limits, /metrics access. */
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
   * Your own adapters for any of the ports, used instead of those chosen from `db`. A
   * `petRepository` of yours records no change events: only the repository chosen from `db`
   * is made with the outbox.
   */
  readonly adapters?: Partial<PetStoreAdapters>;
  /**
   * The change events (on by default): recorded with every change, relayed in this process to
   * `events.subscribe`rs, and to NATS JetStream when `events.nats` names one.
   */
  readonly events?: EventsOptions;
}

/** The service built by {@link createPetStore}. */
export interface PetStore {
  /**
   * The change events, relayed in this process, at least once and in commit order for each
   * pet: `subscribe(subscriber)` calls `subscriber` with every event relayed from then on and
   * answers the function that unsubscribes. A subscriber that rejects, or whose promise has not
   * settled within `IN_PROCESS_SUBSCRIBER_TIMEOUT_MS` (10 s), gets the events again. One relay
   * is active per database: of several stores on one SQLite file or PostgreSQL database, only
   * the subscribers of the one holding the relay's lease hear events.
   */
  readonly events: { subscribe(subscriber: EventSubscriber): () => void };
  /**
   * The HTTP adapter as a Koa app: serve it (`startHttpServer(app.callback(), …)`), or mount it
   * in your own Koa app under a prefix (`parent.use(mount('/petstore', app))` with koa-mount);
   * its links (Location, Link) keep the prefix.
   */
  readonly app: Koa;
  /**
   * The @koa/router the app's routes are declared on. Add your own routes to it
   * (`store.router.get('/hello', handler)`): the app serves them beside the service's, with
   * its request ids, logs, metrics and JSON Error bodies, and answers 405 and OPTIONS for them too.
   */
  readonly router: Router;
  /** The use cases, to call without HTTP. Their input is decoded domain values (`NewPet.decode(…)`). */
  readonly useCases: PetUseCases;
  /** The API keys stored in the database: create (the key is answered once), list, revoke. */
  readonly apiKeys: ApiKeyAdmin;
  /** The inversify container behind it all, for anything else (its tokens are {@link TOKENS}). */
  readonly container: Container;
  /**
   * Marks the service as stopping (/readyz answers 503), stops the event relay (which first
   * hands on the events waiting, to the subscribers among others, and releases its lease), then
   * closes the database or pool, and the Redis client it opened. Calling it again answers the
   * same promise: it resolves once the first call is done.
   */
  close(): Promise<void>;
}

/** The database an option names, checked as PETSTORE_DB and PETSTORE_PG_POOL_SIZE are. */
function databaseOf({ db = 'memory', postgresPoolSize = CONFIG_DEFAULTS.PETSTORE_PG_POOL_SIZE }: PetStoreOptions): DatabaseConfig {
  if (typeof db === 'object') return db;
  const location = parseDatabase(db);
  const poolSizeProblem = integerProblem(postgresPoolSize, PG_POOL_SIZE_RANGE);
  const problems = [
    ...(E.isLeft(location) ? [`db ${location.left}`] : []),
    ...(poolSizeProblem === undefined ? [] : [`postgresPoolSize ${poolSizeProblem}`]),
  ];
  if (E.isLeft(location) || problems.length > 0) throw new TypeError(`createPetStore: ${problems.join('; ')}`);
  return withPoolSize(location.right, postgresPoolSize);
}

/** The Redis an option names, checked as PETSTORE_REDIS_URL and PETSTORE_REDIS_PREFIX are. */
function redisOf({ redis, redisKeyPrefix = DEFAULT_REDIS_KEY_PREFIX }: PetStoreOptions): RedisOptions | undefined {
  const url = typeof redis === 'string' ? parseRedisUrl(redis) : undefined;
  const prefixProblem = redisKeyPrefixProblem(redisKeyPrefix);
  const problems = [
    ...(url !== undefined && E.isLeft(url) ? [`redis ${url.left}`] : []),
    ...(prefixProblem === undefined ? [] : [`redisKeyPrefix ${prefixProblem}`]),
  ];
  if (problems.length > 0) throw new TypeError(`createPetStore: ${problems.join('; ')}`);
  return redis === undefined ? undefined : { connection: redis, keyPrefix: redisKeyPrefix };
}

/** The container's options for `options`, each checked as its environment variable is. */
function containerOptionsOf(options: PetStoreOptions): ContainerOptions {
  const database = databaseOf(options);
  const redis = redisOf(options);
  const apiKeys = options.apiKeys ?? [];
  apiKeys.forEach((key, index) => {
    const problem = apiKeyProblem(key);
    if (problem !== undefined) throw new TypeError(`createPetStore: apiKeys[${index}] ${problem}`);
  });
  const adapters = options.adapters ?? {};
  const problem = adaptersProblem(adapters);
  if (problem !== undefined) throw new TypeError(`createPetStore: ${problem}`);
  return {
    database,
    apiKeys,
    logger: options.logger ?? pino({ level: 'silent' }),
    http: options.http ?? {},
    adapters,
    ...(redis === undefined ? {} : { redis }),
    ...(options.events === undefined ? {} : { events: options.events }),
  };
}

/**
 * Builds the whole service from options: the storage adapters chosen by `db` (opened and
 * migrated now), the use cases, API key verification (the given keys and the stored ones),
 * the rate limits' Redis when `redis` names one (connected now; a Redis that cannot be reached
 * is logged, not fatal) and the Koa app. Close it with `close()`.
 *
 * @throws TypeError when an option is invalid (the message names it, never a key or a password)
 * @example
 * const store = await createPetStore({ db: './data/petstore.db', apiKeys: [process.env.KEY!] });
 * const server = await startHttpServer(store.app.callback(), { host: '127.0.0.1', port: 3000 });
 */
export async function createPetStore(options: PetStoreOptions = {}): Promise<PetStore> {
  const container = createContainer(containerOptionsOf(options));
  try {
    const app = await container.getAsync<Koa>(TOKENS.HttpApp);
    const router = await container.getAsync<Router>(TOKENS.HttpRouter);
    const useCases: PetUseCases = {
      listPets: await container.getAsync(TOKENS.ListPets),
      createPet: await container.getAsync(TOKENS.CreatePet),
      createPetOnce: await container.getAsync(TOKENS.CreatePetOnce),
      getPet: await container.getAsync(TOKENS.GetPet),
      getVersionedPet: await container.getAsync(TOKENS.GetVersionedPet),
      updatePet: await container.getAsync(TOKENS.UpdatePet),
      deletePet: await container.getAsync(TOKENS.DeletePet),
    };
    const apiKeyAdmin = await container.getAsync<ApiKeyAdmin>(TOKENS.ApiKeyAdmin);
    const subscribers = await container.getAsync<InProcessSubscribers>(TOKENS.EventSubscribers);
    const relay = await (await container.getAsync<StartEventRelay>(TOKENS.EventRelay))();
    // Once unbound, the container has nothing to close: a later call answers the first one's promise.
    let closing: Promise<void> | undefined;
    const close = async () => {
      container.get<ServiceState>(TOKENS.ServiceState).draining = true;
      await relay?.stop();
      await closeContainer(container);
    };
    return {
      app,
      router,
      useCases,
      apiKeys: apiKeyAdmin,
      events: { subscribe: (subscriber) => subscribers.subscribe(subscriber) },
      container,
      close: () => (closing ??= close()),
    };
  } catch (err) {
    await closeContainer(container).catch(() => undefined);
    throw err;
  }
}
