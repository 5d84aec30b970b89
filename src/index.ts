// The public library surface: what integrators may import. Everything else is internal.
// Every export is documented where it is declared (a test checks that none lacks TSDoc).

// The whole service in one call.
export { createPetStore, type PetStore, type PetStoreOptions } from './composition/pet-store.js';
export { type PetStoreAdapters, type EventsOptions } from './composition/container-options.js';

// The domain: codecs, rules, failures, ports and use cases.
export * from './domain/index.js';

// Adapters of the ports.
export { MemoryPetRepository } from './adapters/memory/memory-pet-repository.js';
export { MemoryIdempotencyStore } from './adapters/memory/memory-idempotency-store.js';
export { MemoryApiKeyStore } from './adapters/memory/memory-api-key-store.js';
export { MemoryRateLimitStore } from './adapters/memory/memory-rate-limit-store.js';
export { MemoryEventOutbox } from './adapters/memory/memory-event-outbox.js';
export { SqliteEventOutbox } from './adapters/sqlite/sqlite-event-outbox.js';
export { PostgresEventOutbox } from './adapters/postgres/postgres-event-outbox.js';
export { InProcessSubscribers, type EventSubscriber, IN_PROCESS_SUBSCRIBER_TIMEOUT_MS } from './adapters/relay/in-process-subscribers.js';
export {
  startEventRelay,
  type EventRelayOptions,
  type RunningEventRelay,
  type RelayReport,
  RELAY_TIMINGS,
} from './adapters/relay/event-relay.js';
export { cloudEventJson, CLOUD_EVENT_CONTENT_TYPE } from './adapters/shared/cloud-event.js';
export { RedisRateLimitStore } from './adapters/redis/redis-rate-limit-store.js';
export { SqlitePetRepository } from './adapters/sqlite/sqlite-pet-repository.js';
export { SqliteIdempotencyStore } from './adapters/sqlite/sqlite-idempotency-store.js';
export { SqliteApiKeyStore } from './adapters/sqlite/sqlite-api-key-store.js';
export { openSqliteDatabase, SQLITE_IN_MEMORY } from './adapters/sqlite/open-sqlite-database.js';
export { migrateSqlite, SQLITE_MIGRATIONS, SQLITE_SCHEMA_VERSION } from './adapters/sqlite/migrations.js';
export { sqliteReadiness } from './adapters/sqlite/sqlite-readiness.js';
export { PostgresPetRepository } from './adapters/postgres/postgres-pet-repository.js';
export { PostgresIdempotencyStore } from './adapters/postgres/postgres-idempotency-store.js';
export { PostgresApiKeyStore } from './adapters/postgres/postgres-api-key-store.js';
export {
  createPostgresPool,
  openPostgresPool,
  type PostgresPoolOptions,
  POSTGRES_POOL_DEFAULTS,
} from './adapters/postgres/create-postgres-pool.js';
export {
  migratePostgres,
  type MigrationResult,
  type PostgresMigration,
  POSTGRES_MIGRATIONS,
  POSTGRES_SCHEMA_VERSION,
} from './adapters/postgres/migrations.js';
export { checkPostgres } from './adapters/postgres/postgres-health-check.js';
export { StaticApiKeyVerifier } from './adapters/auth/static-api-key-verifier.js';
export { StoredApiKeyVerifier, type StoredApiKeyVerifierOptions } from './adapters/auth/stored-api-key-verifier.js';
export { anyCredentialVerifier } from './adapters/auth/any-credential-verifier.js';
export { generateApiKey, apiKeyDigest, cryptoApiKeyGenerator } from './adapters/auth/api-key.js';
export { systemClock } from './adapters/clock/system-clock.js';

// The HTTP adapter.
export {
  createHttpApp,
  createHttpRouter,
  type HttpAppDependencies,
  type HttpAppOptions,
  API_BASE_PATH,
  OPENAPI_PATH,
  DEFAULT_BODY_LIMIT_BYTES,
} from './adapters/http/create-http-app.js';
export { startHttpServer, type RunningHttpServer, type HttpServerLimits, DEFAULT_SERVER_LIMITS } from './adapters/http/http-server.js';
export { ERROR_CATALOGUE, type ApiError, type ErrorCode, type ErrorDetail } from './adapters/http/errors/error-catalogue.js';
export { ListPetsQuery, PetPathParams } from './adapters/http/request/parameters.js';
export { PetHandlers, type PetUseCases } from './adapters/http/handlers/pet-handlers.js';
export type { MetricsAccess } from './adapters/http/handlers/operator-handlers.js';
export { encodeCursor, decodeCursor, type PagePosition } from './adapters/http/request/page-cursor.js';

// The typed HTTP client (also importable alone, without the server: `petstore-hexagon/client`).
// Its resources are the JSON values on the wire, named Client… here beside the domain's own.
export {
  PetStoreClient,
  type PetStoreClientOptions,
  type CreatePetOptions,
  type BearerProvider,
  PetStoreError,
  InsufficientScopeError,
  type PetStoreErrorDetail,
  CLIENT_ERROR_CODES,
  DEFAULT_RETRY_POLICY,
  type RetryPolicy,
  type CallOptions,
  type ListPetsParams,
  type Pet as ClientPet,
  type NewPet as ClientNewPet,
  type PetPage as ClientPetPage,
  type PetPatch as ClientPetPatch,
  type PetWithETag as ClientPetWithETag,
  type ChangePetOptions,
  type PlaceOrderOptions,
  type ChangeOrderOptions,
  type ListOrdersParams,
  type Order as ClientOrder,
  type NewOrder as ClientNewOrder,
  type OrderPage as ClientOrderPage,
  type OrderStatus as ClientOrderStatus,
  type OrderWithETag as ClientOrderWithETag,
  type Inventory as ClientInventory,
  CategoriesClient,
  type Category as ClientCategory,
  type CategoryPage as ClientCategoryPage,
  type CategoryWithETag as ClientCategoryWithETag,
  type ListCategoriesParams,
} from './client/index.js';

// The composition root and its configuration.
export { createContainer, closeContainer, generatedApiKey } from './composition/container.js';
export { type ContainerOptions, type RedisOptions, containerOptionsFrom } from './composition/container-options.js';
export { TOKENS } from './composition/tokens.js';
export {
  loadConfig,
  type Config,
  type LogLevel,
  type RequestsPerWindow,
  CONFIG_DEFAULTS,
  DEFAULT_AUTH_FAILURE_LIMIT,
} from './config/config.js';
export { type DatabaseConfig, describeDatabase } from './config/database-config.js';
export { createLogger } from './adapters/logging/pino-logger.js';
