// The composition root: the only place that knows which adapter serves which port.
// Domain code never sees inversify; it is built here from its ports with toResolvedValue.
import 'reflect-metadata';
import type Database from 'better-sqlite3';
import { Container } from 'inversify';
import type Koa from 'koa';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { type ApiKeyAdmin, apiKeyAdmin } from './adapters/auth/api-key-admin.js';
import { StaticApiKeyVerifier } from './adapters/auth/static-api-key-verifier.js';
import { anyApiKeyVerifier, StoredApiKeyVerifier } from './adapters/auth/stored-api-key-verifier.js';
import { createHttpApp, type HttpAppOptions } from './adapters/http/create-http-app.js';
import { systemClock } from './adapters/clock/system-clock.js';
import { MemoryApiKeyStore } from './adapters/memory/memory-api-key-store.js';
import { MemoryIdempotencyStore } from './adapters/memory/memory-idempotency-store.js';
import { MemoryPetRepository } from './adapters/memory/memory-pet-repository.js';
import { openPostgresPool } from './adapters/postgres/create-postgres-pool.js';
import { PostgresApiKeyStore } from './adapters/postgres/postgres-api-key-store.js';
import { PostgresIdempotencyStore } from './adapters/postgres/postgres-idempotency-store.js';
import { checkPostgres } from './adapters/postgres/postgres-health-check.js';
import { PostgresPetRepository } from './adapters/postgres/postgres-pet-repository.js';
import { openSqliteDatabase } from './adapters/sqlite/open-sqlite-database.js';
import { SqliteApiKeyStore } from './adapters/sqlite/sqlite-api-key-store.js';
import { SqliteIdempotencyStore } from './adapters/sqlite/sqlite-idempotency-store.js';
import { sqliteReadiness } from './adapters/sqlite/sqlite-readiness.js';
import { SqlitePetRepository } from './adapters/sqlite/sqlite-pet-repository.js';
import type { Config } from './config.js';
import {
  type ApiKeyStore,
  type ApiKeyVerifier,
  type Clock,
  type CreatePet,
  createPet,
  type CreatePetOnce,
  createPetOnce,
  type GetPet,
  getPet,
  type IdempotencyStore,
  type ListPets,
  listPets,
  type PetRepository,
  type ReadinessCheck,
  type ServiceState,
} from './domain/index.js';
import { describeFault } from './logger.js';
import { TOKENS } from './tokens.js';

/**
 * A container for `config`. Every binding is a singleton; ports can be replaced with
 * `container.rebind(TOKENS.X)` before the first `get`. Close it with {@link closeContainer}.
 * Resolve with `getAsync`: opening PostgreSQL (connecting, migrating) is asynchronous, and so
 * is everything built on it.
 */
export function createContainer(config: Config, logger: Logger): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.bind<Config>(TOKENS.Config).toConstantValue(config);
  container.bind<Logger>(TOKENS.Logger).toConstantValue(logger);
  container.bind<Clock>(TOKENS.Clock).toConstantValue(systemClock);

  container
    .bind<Database.Database>(TOKENS.SqliteDatabase)
    .toResolvedValue(() => {
      if (config.database.kind !== 'sqlite') throw new Error('no SQLite database is configured');
      return openSqliteDatabase(config.database.path);
    })
    .onDeactivation((db) => {
      db.close();
    });

  // The pool is ready once the schema is migrated, so a server never serves an old schema.
  container
    .bind<Pool>(TOKENS.PostgresPool)
    .toResolvedValue(async () => {
      if (config.database.kind !== 'postgres') throw new Error('no PostgreSQL database is configured');
      const { url, poolSize } = config.database;
      return openPostgresPool({ url, poolSize }, (err) =>
        logger.warn({ fault: describeFault(err) }, 'PostgreSQL connection lost while idle; the pool will reconnect'),
      );
    })
    .onDeactivation((pool) => pool.end());

  // Every port that stores data (pets, idempotency records, API keys) lives in the same database, so they are chosen together.
  switch (config.database.kind) {
    case 'sqlite':
      container
        .bind<PetRepository>(TOKENS.PetRepository)
        .toResolvedValue((db: Database.Database) => new SqlitePetRepository(db), [TOKENS.SqliteDatabase]);
      container
        .bind<IdempotencyStore>(TOKENS.IdempotencyStore)
        .toResolvedValue((db: Database.Database) => new SqliteIdempotencyStore(db), [TOKENS.SqliteDatabase]);
      container
        .bind<ApiKeyStore>(TOKENS.ApiKeyStore)
        .toResolvedValue((db: Database.Database) => new SqliteApiKeyStore(db), [TOKENS.SqliteDatabase]);
      container.bind<ReadinessCheck>(TOKENS.ReadinessCheck).toResolvedValue(sqliteReadiness, [TOKENS.SqliteDatabase]);
      break;
    case 'postgres':
      container
        .bind<PetRepository>(TOKENS.PetRepository)
        .toResolvedValue((pool: Pool) => new PostgresPetRepository(pool), [TOKENS.PostgresPool]);
      container
        .bind<IdempotencyStore>(TOKENS.IdempotencyStore)
        .toResolvedValue((pool: Pool) => new PostgresIdempotencyStore(pool), [TOKENS.PostgresPool]);
      container
        .bind<ApiKeyStore>(TOKENS.ApiKeyStore)
        .toResolvedValue((pool: Pool) => new PostgresApiKeyStore(pool), [TOKENS.PostgresPool]);
      container
        .bind<ReadinessCheck>(TOKENS.ReadinessCheck)
        .toResolvedValue((pool: Pool) => () => checkPostgres(pool), [TOKENS.PostgresPool]);
      break;
    case 'memory':
      container.bind<PetRepository>(TOKENS.PetRepository).toResolvedValue(() => new MemoryPetRepository());
      container.bind<IdempotencyStore>(TOKENS.IdempotencyStore).toResolvedValue(() => new MemoryIdempotencyStore());
      container.bind<ApiKeyStore>(TOKENS.ApiKeyStore).toResolvedValue(() => new MemoryApiKeyStore());
      container.bind<ReadinessCheck>(TOKENS.ReadinessCheck).toConstantValue(async () => {});
      break;
  }
  container.bind<ServiceState>(TOKENS.ServiceState).toConstantValue({ draining: false });

  // The configured keys first (no lookup), then the keys stored in the database.
  container.bind<readonly string[]>(TOKENS.StaticApiKeys).toConstantValue(config.apiKeys);
  container
    .bind<ApiKeyVerifier>(TOKENS.ApiKeyVerifier)
    .toResolvedValue(
      (keys: readonly string[], store: ApiKeyStore) => anyApiKeyVerifier(new StaticApiKeyVerifier(keys), new StoredApiKeyVerifier(store)),
      [TOKENS.StaticApiKeys, TOKENS.ApiKeyStore],
    );
  container.bind<ApiKeyAdmin>(TOKENS.ApiKeyAdmin).toResolvedValue(apiKeyAdmin, [TOKENS.ApiKeyStore, TOKENS.Clock]);

  container.bind<ListPets>(TOKENS.ListPets).toResolvedValue(listPets, [TOKENS.PetRepository]);
  container.bind<CreatePet>(TOKENS.CreatePet).toResolvedValue(createPet, [TOKENS.PetRepository]);
  container.bind<GetPet>(TOKENS.GetPet).toResolvedValue(getPet, [TOKENS.PetRepository]);
  container
    .bind<CreatePetOnce>(TOKENS.CreatePetOnce)
    .toResolvedValue(createPetOnce, [TOKENS.PetRepository, TOKENS.IdempotencyStore, TOKENS.Clock]);

  container.bind<HttpAppOptions>(TOKENS.HttpAppOptions).toConstantValue({
    corsOrigins: config.corsOrigins,
    metrics: config.metrics,
    ...(config.rateLimit === undefined ? {} : { rateLimit: config.rateLimit }),
  });
  container
    .bind<Koa>(TOKENS.HttpApp)
    .toResolvedValue(
      (
        list: ListPets,
        create: CreatePet,
        createOnce: CreatePetOnce,
        get: GetPet,
        apiKeyVerifier: ApiKeyVerifier,
        log: Logger,
        readiness: ReadinessCheck,
        state: ServiceState,
        options: HttpAppOptions,
      ) =>
        createHttpApp({
          useCases: { listPets: list, createPet: create, createPetOnce: createOnce, getPet: get },
          apiKeyVerifier,
          logger: log,
          readiness,
          state,
          options,
        }),
      [
        TOKENS.ListPets,
        TOKENS.CreatePet,
        TOKENS.CreatePetOnce,
        TOKENS.GetPet,
        TOKENS.ApiKeyVerifier,
        TOKENS.Logger,
        TOKENS.ReadinessCheck,
        TOKENS.ServiceState,
        TOKENS.HttpAppOptions,
      ],
    );
  return container;
}

/** Releases what the container opened (the SQLite database or the PostgreSQL pool, if one was used). */
export async function closeContainer(container: Container): Promise<void> {
  await container.unbindAllAsync();
}
