// What the composition root builds the service from, as one typed value, and how the server's
// configuration becomes it. createPetStore and the server process (serve, the workers'
// primary, keys) all build their container from a ContainerOptions, through createContainer.
import type { Logger } from 'pino';
import type { HttpAppOptions } from './adapters/http/create-http-app.js';
import type { Config } from './config.js';
import type { DatabaseConfig } from './database-config.js';
import type { ApiKeyStore, ApiKeyVerifier, Clock, IdempotencyStore, PetRepository, ReadinessCheck } from './domain/index.js';

/** Ports that the caller can provide instead of those the composition root builds. */
export interface PetStoreAdapters {
  /**
   * Stores a pet created with an Idempotency-Key together with the key's record
   * (createCompleting): give it with the `idempotencyStore` of the same storage.
   */
  readonly petRepository: PetRepository;
  /** The idempotency records that `petRepository.createCompleting` completes: given with it. */
  readonly idempotencyStore: IdempotencyStore;
  readonly apiKeyStore: ApiKeyStore;
  /** Replaces the whole verification: configured and stored keys are then no longer consulted. */
  readonly apiKeyVerifier: ApiKeyVerifier;
  readonly clock: Clock;
  /** What /readyz checks. */
  readonly readiness: ReadinessCheck;
}

/** Everything {@link createContainer} builds the service from. */
export interface ContainerOptions {
  /** Where pets, idempotency records and stored API keys are kept. */
  readonly database: DatabaseConfig;
  /** API keys accepted as they are, besides the keys stored in the database. */
  readonly apiKeys: readonly string[];
  /**
   * With no `apiKeys` and no active stored key, accept one random key made for this run, so
   * that a newcomer can call the API at once (the server does this). Read it with
   * {@link generatedApiKey}. Off by default: then such a service accepts no key until one is stored.
   */
  readonly generateKeyWhenNone?: boolean;
  /** Where the service logs. */
  readonly logger: Logger;
  /** Options of the HTTP adapter: body limit, CORS origins, rate limit, /metrics access. */
  readonly http?: HttpAppOptions;
  /** Your own adapters for any of the ports, bound instead of those chosen from `database`. */
  readonly adapters?: Partial<PetStoreAdapters>;
}

/** The options of the service that `config` (read from the environment by loadConfig) describes. */
export function containerOptionsFrom(config: Config, logger: Logger): ContainerOptions {
  return {
    database: config.database,
    apiKeys: config.apiKeys,
    logger,
    http: {
      corsOrigins: config.corsOrigins,
      metrics: config.metrics,
      ...(config.rateLimit === undefined ? {} : { rateLimit: config.rateLimit }),
    },
  };
}
