// Which adapter serves each port: the caller's own when ContainerOptions.adapters gives one,
// bound as it is; otherwise the one the database calls for. A given port is never bound
// twice, and the default it replaces is never built.
import type Database from 'better-sqlite3';
import type { BindToFluentSyntax, Container } from 'inversify';
import type { Pool } from 'pg';
import { cryptoApiKeyGenerator } from '../adapters/auth/api-key.js';
import { StaticApiKeyVerifier } from '../adapters/auth/static-api-key-verifier.js';
import { anyCredentialVerifier } from '../adapters/auth/any-credential-verifier.js';
import { StoredApiKeyVerifier } from '../adapters/auth/stored-api-key-verifier.js';
import { systemClock } from '../adapters/clock/system-clock.js';
import { MemoryApiKeyStore } from '../adapters/memory/memory-api-key-store.js';
import { MemoryCategoryRepository } from '../adapters/memory/memory-category-repository.js';
import { MemoryStoreArchive, memoryStoreBackup } from '../adapters/memory/memory-archive.js';
import { MemoryOrderRepository } from '../adapters/memory/memory-order-repository.js';
import { MemoryIdempotencyStore } from '../adapters/memory/memory-idempotency-store.js';
import { MemoryEventOutbox } from '../adapters/memory/memory-event-outbox.js';
import { MemoryPetRepository } from '../adapters/memory/memory-pet-repository.js';
import { MemoryWebhookStore } from '../adapters/memory/memory-webhook-store.js';
import { openPostgresPool } from '../adapters/postgres/create-postgres-pool.js';
import { POSTGRES_SCHEMA_VERSION } from '../adapters/postgres/migrations.js';
import { PostgresApiKeyStore } from '../adapters/postgres/postgres-api-key-store.js';
import { PostgresStoreArchive, postgresStoreBackup } from '../adapters/postgres/postgres-archive.js';
import { checkPostgres } from '../adapters/postgres/postgres-health-check.js';
import { PostgresIdempotencyStore } from '../adapters/postgres/postgres-idempotency-store.js';
import { PostgresEventOutbox } from '../adapters/postgres/postgres-event-outbox.js';
import { PostgresPetRepository } from '../adapters/postgres/postgres-pet-repository.js';
import { PostgresWebhookStore } from '../adapters/postgres/postgres-webhook-store.js';
import { SQLITE_SCHEMA_VERSION } from '../adapters/sqlite/migrations.js';
import { openSqliteDatabase } from '../adapters/sqlite/open-sqlite-database.js';
import { SqliteApiKeyStore } from '../adapters/sqlite/sqlite-api-key-store.js';
import { SqliteStoreArchive } from '../adapters/sqlite/sqlite-archive.js';
import { SqliteStoreBackup } from '../adapters/sqlite/sqlite-backup.js';
import { SqliteIdempotencyStore } from '../adapters/sqlite/sqlite-idempotency-store.js';
import { SqliteEventOutbox } from '../adapters/sqlite/sqlite-event-outbox.js';
import { SqlitePetRepository } from '../adapters/sqlite/sqlite-pet-repository.js';
import { sqliteReadiness } from '../adapters/sqlite/sqlite-readiness.js';
import { SqliteWebhookStore } from '../adapters/sqlite/sqlite-webhook-store.js';
import type { Tracing } from '../adapters/shared/tracing.js';
import { type ContainerOptions, EVENTS_OPTION_DEFAULTS, type PetStoreAdapters } from './container-options.js';
import type {
  ApiKeyGenerator,
  ApiKeyStore,
  CategoryRepository,
  CredentialVerifier,
  Clock,
  EventOutbox,
  IdempotencyStore,
  OrderRepository,
  PetRepository,
  ReadinessCheck,
  StoreArchive,
  StoreBackup,
  WebhookStore,
} from '../domain/index.js';
import { describeFault } from '../domain/fault-description.js';
import { TOKENS } from './tokens.js';

/** The version of the schema the storage is migrated to once it is open; undefined for memory, which has none. */
export type SchemaVersion = number | undefined;

/** Binds `token` to the caller's `adapter` as it is when one is given, else to the default `bindDefault` binds. */
type BindPort = <T>(token: symbol, adapter: T | undefined, bindDefault: (to: BindToFluentSyntax<T>) => unknown) => void;

/** What the bindings of one kind of database need. */
interface StorageBindings {
  readonly container: Container;
  readonly port: BindPort;
  readonly given: Partial<PetStoreAdapters>;
  /** Whether the default repositories record change events: a repository given in `adapters` records what it records. */
  readonly recordEvents: boolean;
}

/** Binds the ports (PetRepository, EventOutbox, IdempotencyStore, ApiKeyStore, StoreArchive, StoreBackup, WebhookStore, ReadinessCheck, CredentialVerifier, ApiKeyGenerator, Clock), the database they need and its SchemaVersion. */
export function bindPorts(container: Container, { database, adapters: given = {}, logger, events = {} }: ContainerOptions): void {
  const recordEvents = events.enabled ?? EVENTS_OPTION_DEFAULTS.enabled;
  const port: BindPort = <T>(token: symbol, adapter: T | undefined, bindDefault: (to: BindToFluentSyntax<T>) => unknown): void => {
    const to = container.bind<T>(token);
    if (adapter === undefined) bindDefault(to);
    else to.toConstantValue(adapter);
  };

  port<Clock>(TOKENS.Clock, given.clock, (to) => to.toConstantValue(systemClock));
  container.bind<ApiKeyGenerator>(TOKENS.ApiKeyGenerator).toConstantValue(cryptoApiKeyGenerator);
  // The configured keys (or the key generated for this run) first, without a lookup; then the identity provider's
  // tokens, when there is one (a credential that is not a JWT is unknown to it, at the cost of a pattern test);
  // then the keys stored in the database, so that a token costs no lookup.
  port<CredentialVerifier>(TOKENS.CredentialVerifier, given.credentialVerifier, (to) =>
    to.toResolvedValue(
      (keys: readonly string[], store: ApiKeyStore, clock: Clock, tokens: CredentialVerifier | undefined) =>
        anyCredentialVerifier(
          new StaticApiKeyVerifier(keys),
          ...(tokens === undefined ? [] : [tokens]),
          new StoredApiKeyVerifier(store, { clock, logger }),
        ),
      [TOKENS.StaticApiKeys, TOKENS.ApiKeyStore, TOKENS.Clock, TOKENS.JwtVerifier],
    ),
  );

  // Every port that stores data (pets, idempotency records, API keys, webhooks) lives in the same database, so they are chosen together.
  const storage: StorageBindings = { container, port, given, recordEvents };
  switch (database.kind) {
    case 'sqlite':
      bindSqlitePorts(storage, database.path);
      break;
    case 'postgres':
      bindPostgresPorts(storage, database, logger);
      break;
    case 'memory':
      bindMemoryPorts(storage);
      break;
  }
}

function bindSqlitePorts({ container, port, given, recordEvents }: StorageBindings, path: string): void {
  container
    .bind<Database.Database>(TOKENS.SqliteDatabase)
    .toResolvedValue(() => openSqliteDatabase(path))
    .onDeactivation((db) => {
      db.close();
    });
  container
    .bind<EventOutbox>(TOKENS.EventOutbox)
    .toResolvedValue(
      (db: Database.Database, tracing: Tracing | undefined) => new SqliteEventOutbox(db, tracing?.current),
      [TOKENS.SqliteDatabase, TOKENS.Tracing],
    );
  port<PetRepository>(TOKENS.PetRepository, given.petRepository, (to) =>
    to.toResolvedValue(
      (db: Database.Database, outbox: SqliteEventOutbox) => new SqlitePetRepository(db, recordEvents ? outbox : undefined),
      [TOKENS.SqliteDatabase, TOKENS.EventOutbox],
    ),
  );
  port<IdempotencyStore>(TOKENS.IdempotencyStore, given.idempotencyStore, (to) =>
    to.toResolvedValue((db: Database.Database) => new SqliteIdempotencyStore(db), [TOKENS.SqliteDatabase]),
  );
  port<ApiKeyStore>(TOKENS.ApiKeyStore, given.apiKeyStore, (to) =>
    to.toResolvedValue((db: Database.Database) => new SqliteApiKeyStore(db), [TOKENS.SqliteDatabase]),
  );
  container
    .bind<WebhookStore>(TOKENS.WebhookStore)
    .toResolvedValue((db: Database.Database) => new SqliteWebhookStore(db), [TOKENS.SqliteDatabase]);
  port<ReadinessCheck>(TOKENS.ReadinessCheck, given.readiness, (to) => to.toResolvedValue(sqliteReadiness, [TOKENS.SqliteDatabase]));
  container
    .bind<StoreArchive>(TOKENS.StoreArchive)
    .toResolvedValue((db: Database.Database) => new SqliteStoreArchive(db), [TOKENS.SqliteDatabase]);
  container
    .bind<StoreBackup>(TOKENS.StoreBackup)
    .toResolvedValue((db: Database.Database) => new SqliteStoreBackup(db), [TOKENS.SqliteDatabase]);
  // Opening the database migrates it, so the version is answered once the schema has it.
  container
    .bind<SchemaVersion>(TOKENS.SchemaVersion)
    .toResolvedValue((_opened: Database.Database) => SQLITE_SCHEMA_VERSION, [TOKENS.SqliteDatabase]);
}

function bindPostgresPorts(
  { container, port, given, recordEvents }: StorageBindings,
  database: { readonly url: string; readonly poolSize: number },
  logger: ContainerOptions['logger'],
): void {
  // The pool is ready once the schema is migrated, so a server never serves an old schema.
  container
    .bind<Pool>(TOKENS.PostgresPool)
    .toResolvedValue(async () =>
      openPostgresPool({ url: database.url, poolSize: database.poolSize }, (err) =>
        logger.warn({ fault: describeFault(err) }, 'PostgreSQL connection lost while idle; the pool will reconnect'),
      ),
    )
    .onDeactivation((pool) => pool.end());
  container.bind<EventOutbox>(TOKENS.EventOutbox).toResolvedValue((pool: Pool) => new PostgresEventOutbox(pool), [TOKENS.PostgresPool]);
  port<PetRepository>(TOKENS.PetRepository, given.petRepository, (to) =>
    to.toResolvedValue(
      (pool: Pool, tracing: Tracing | undefined) => new PostgresPetRepository(pool, recordEvents, tracing?.current),
      [TOKENS.PostgresPool, TOKENS.Tracing],
    ),
  );
  port<IdempotencyStore>(TOKENS.IdempotencyStore, given.idempotencyStore, (to) =>
    to.toResolvedValue((pool: Pool) => new PostgresIdempotencyStore(pool), [TOKENS.PostgresPool]),
  );
  port<ApiKeyStore>(TOKENS.ApiKeyStore, given.apiKeyStore, (to) =>
    to.toResolvedValue((pool: Pool) => new PostgresApiKeyStore(pool), [TOKENS.PostgresPool]),
  );
  container.bind<WebhookStore>(TOKENS.WebhookStore).toResolvedValue((pool: Pool) => new PostgresWebhookStore(pool), [TOKENS.PostgresPool]);
  port<ReadinessCheck>(TOKENS.ReadinessCheck, given.readiness, (to) =>
    to.toResolvedValue((pool: Pool) => () => checkPostgres(pool), [TOKENS.PostgresPool]),
  );
  container.bind<StoreArchive>(TOKENS.StoreArchive).toResolvedValue((pool: Pool) => new PostgresStoreArchive(pool), [TOKENS.PostgresPool]);
  container.bind<StoreBackup>(TOKENS.StoreBackup).toConstantValue(postgresStoreBackup);
  container.bind<SchemaVersion>(TOKENS.SchemaVersion).toResolvedValue((_migrated: Pool) => POSTGRES_SCHEMA_VERSION, [TOKENS.PostgresPool]);
}

function bindMemoryPorts({ container, port, given, recordEvents }: StorageBindings): void {
  // The memory pet repository completes the records of the memory idempotency store it is
  // made with (createCompleting); both are given together or neither is (adaptersProblem).
  const records = new MemoryIdempotencyStore();
  container
    .bind<EventOutbox>(TOKENS.EventOutbox)
    .toResolvedValue((tracing: Tracing | undefined) => new MemoryEventOutbox(tracing?.current), [TOKENS.Tracing]);
  port<PetRepository>(TOKENS.PetRepository, given.petRepository, (to) =>
    to.toResolvedValue(
      (outbox: MemoryEventOutbox) => new MemoryPetRepository(records, recordEvents ? outbox : undefined),
      [TOKENS.EventOutbox],
    ),
  );
  port<IdempotencyStore>(TOKENS.IdempotencyStore, given.idempotencyStore, (to) => to.toConstantValue(records));
  port<ApiKeyStore>(TOKENS.ApiKeyStore, given.apiKeyStore, (to) => to.toResolvedValue(() => new MemoryApiKeyStore()));
  container.bind<WebhookStore>(TOKENS.WebhookStore).toResolvedValue(() => new MemoryWebhookStore());
  port<ReadinessCheck>(TOKENS.ReadinessCheck, given.readiness, (to) => to.toConstantValue(async () => {}));
  // Over the memory adapters themselves: refused when a port was given another adapter.
  container.bind<StoreArchive>(TOKENS.StoreArchive).toResolvedValue(
    (pets: PetRepository, keys: ApiKeyStore, idempotency: IdempotencyStore, orders: OrderRepository, categories: CategoryRepository) => {
      if (
        pets instanceof MemoryPetRepository &&
        keys instanceof MemoryApiKeyStore &&
        idempotency instanceof MemoryIdempotencyStore &&
        orders instanceof MemoryOrderRepository &&
        categories instanceof MemoryCategoryRepository
      ) {
        return new MemoryStoreArchive(pets, keys, idempotency, orders, categories);
      }
      throw new Error('the StoreArchive of memory storage needs the memory adapters of every storage port');
    },
    [TOKENS.PetRepository, TOKENS.ApiKeyStore, TOKENS.IdempotencyStore, TOKENS.OrderRepository, TOKENS.CategoryRepository],
  );
  container.bind<StoreBackup>(TOKENS.StoreBackup).toConstantValue(memoryStoreBackup);
  container.bind<SchemaVersion>(TOKENS.SchemaVersion).toConstantValue(undefined);
}
