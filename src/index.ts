// The public library surface: what integrators may import. Everything else is internal.
export * from './domain/index.js';
export { MemoryPetRepository } from './adapters/memory/memory-pet-repository.js';
export { SqlitePetRepository } from './adapters/sqlite/sqlite-pet-repository.js';
export { openSqliteDatabase, SQLITE_IN_MEMORY } from './adapters/sqlite/open-sqlite-database.js';
export { migrateSqlite, SQLITE_SCHEMA_VERSION } from './adapters/sqlite/migrations.js';
export { PostgresPetRepository } from './adapters/postgres/postgres-pet-repository.js';
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
export { StorageUnavailableError } from './adapters/storage-unavailable-error.js';
export { StaticApiKeyVerifier } from './adapters/auth/static-api-key-verifier.js';
export { generateApiKey } from './adapters/auth/api-key.js';
export { createHttpApp, type HttpAppDependencies, API_BASE_PATH, DEFAULT_BODY_LIMIT_BYTES } from './adapters/http/create-http-app.js';
export { startHttpServer, type RunningHttpServer, type HttpServerLimits, DEFAULT_SERVER_LIMITS } from './adapters/http/http-server.js';
export { ERROR_CATALOGUE, type ErrorCode, type ErrorDetail } from './adapters/http/error-catalogue.js';
export type { PetUseCases } from './adapters/http/pet-routes.js';
export { createContainer, closeContainer } from './container.js';
export { TOKENS } from './tokens.js';
export { loadConfig, type Config, type DatabaseConfig, CONFIG_DEFAULTS, describeDatabase } from './config.js';
export { createLogger } from './logger.js';
