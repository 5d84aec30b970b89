// What the composition root builds the service from, as one typed value, and how the server's
// configuration becomes it. createPetStore and the server process (serve, the workers'
// primary, keys) all build their container from a ContainerOptions, through createContainer.
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { HttpAppOptions } from '../adapters/http/create-http-app.js';
import { MemoryPetRepository } from '../adapters/memory/memory-pet-repository.js';
import type { JwtSettings } from '../adapters/jwt/jwt-settings.js';
import type { Config } from '../config/config.js';
import type { DatabaseConfig } from '../config/database-config.js';
import { EVENTS_DEFAULTS } from '../config/events-config.js';
import type {
  ApiKeyStore,
  CategoryRule,
  CredentialVerifier,
  Clock,
  IdempotencyStore,
  PetRepository,
  ReadinessCheck,
} from '../domain/index.js';

/** Ports that the caller can provide instead of those the composition root builds. */
export interface PetStoreAdapters {
  /**
   * Stores a pet created with an Idempotency-Key together with the key's record
   * (createCompleting): give it with the `idempotencyStore` of the same storage; either alone is refused.
   */
  readonly petRepository: PetRepository;
  /** The idempotency records that `petRepository.createCompleting` completes: given with it. */
  readonly idempotencyStore: IdempotencyStore;
  readonly apiKeyStore: ApiKeyStore;
  /** Replaces the whole verification: configured and stored keys are then no longer consulted. */
  readonly credentialVerifier: CredentialVerifier;
  readonly clock: Clock;
  /** What /readyz checks. */
  readonly readiness: ReadinessCheck;
}

/**
 * Why `adapters` cannot be bound as given, as a sentence naming them, or undefined when they
 * can: a pet created with an Idempotency-Key is stored with its key's record in one transaction
 * of one storage, so a caller's `petRepository` cannot complete another storage's records.
 */
export function adaptersProblem({ petRepository, idempotencyStore }: Partial<PetStoreAdapters>): string | undefined {
  if ((petRepository === undefined) !== (idempotencyStore === undefined)) {
    return "adapters.petRepository and adapters.idempotencyStore must be given together, of one storage (createCompleting stores a pet with its key's record)";
  }
  // The memory pair can tell; other storages' pairs are the caller's to match.
  if (petRepository instanceof MemoryPetRepository && !petRepository.completes(idempotencyStore)) {
    return 'adapters.petRepository must be made with adapters.idempotencyStore: new MemoryPetRepository(idempotencyStore)';
  }
  return undefined;
}

/** Redis, where the rate limits keep counts that every instance using the same Redis and key prefix shares. */
export interface RedisOptions {
  /**
   * A redis:// (or rediss://, TLS) URL: connected when the app is first resolved, disconnected
   * by closeContainer. Or an ioredis client of yours, used as it is and never closed: make it
   * with `enableOfflineQueue: false` and a `commandTimeout`, so that requests stay quick while
   * Redis is away.
   */
  readonly connection: string | Redis;
  /** Begins every key the service writes, so that services can share one Redis. */
  readonly keyPrefix: string;
}

/** The change events: recorded with every change in the outbox, relayed to subscribers and, when given, to NATS JetStream. */
export interface EventsOptions {
  /** Whether every change records its event (default true). Off: no outbox writes, no relay. */
  readonly enabled?: boolean;
  /** The CloudEvents `source` of every event (default `/petstore`). */
  readonly source?: string;
  /** How long a relayed event stays in the outbox (default 24 hours). */
  readonly retentionHours?: number;
  /** The NATS server whose JetStream receives every event, and the stream (created when absent; default `PETSTORE`). */
  readonly nats?: { readonly url: string; readonly stream?: string };
  /** How many deliveries to one webhook endpoint are under way at once, at most (default 20). */
  readonly webhookConcurrency?: number;
}

/** The defaults of {@link ContainerOptions.events}: those of the environment's settings. */
export const EVENTS_OPTION_DEFAULTS = {
  enabled: EVENTS_DEFAULTS.PETSTORE_EVENTS === 'on',
  source: EVENTS_DEFAULTS.PETSTORE_EVENT_SOURCE,
  retentionHours: EVENTS_DEFAULTS.PETSTORE_EVENT_RETENTION_HOURS,
  webhookConcurrency: EVENTS_DEFAULTS.PETSTORE_WEBHOOK_CONCURRENCY,
} as const;

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
  /** Options of the HTTP adapter: body limit, CORS origins, rate limits, /metrics access. */
  readonly http?: HttpAppOptions;
  /**
   * Redis, to share the counts of the rate limits (`http.rateLimit`, `http.authFailureLimit`)
   * between instances; without it each process counts alone. While Redis cannot be reached,
   * each process limits alone (an insurance limit of the same size) and the outage is logged.
   */
  readonly redis?: RedisOptions;
  /** Your own adapters for any of the ports, bound instead of those chosen from `database`. */
  readonly adapters?: Partial<PetStoreAdapters>;
  /** The change events (on by default). */
  readonly events?: EventsOptions;
  /** The identity provider whose JWT access tokens are accepted beside the API keys; none when absent. */
  readonly jwt?: JwtSettings;
  /**
   * OpenTelemetry traces, exported over OTLP/HTTP as OpenTelemetry's SDK reads its `OTEL_*`
   * environment variables (the endpoint, the service name, the sampler). Off by default: the
   * SDK is then never loaded.
   */
  readonly tracing?: boolean;
  /** `registered`: a pet's categoryId must name a category (422 unknown_category otherwise); `open` (the default): any. */
  readonly categories?: CategoryRule;
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
      ...(config.authFailureLimit === undefined ? {} : { authFailureLimit: config.authFailureLimit }),
    },
    ...(config.redisUrl === undefined ? {} : { redis: { connection: config.redisUrl, keyPrefix: config.redisKeyPrefix } }),
    ...(config.jwt === undefined ? {} : { jwt: config.jwt }),
    events: {
      enabled: config.events.enabled,
      source: config.events.source,
      retentionHours: config.events.retentionHours,
      webhookConcurrency: config.events.webhookConcurrency,
      ...(config.events.natsUrl === undefined ? {} : { nats: { url: config.events.natsUrl, stream: config.events.natsStream } }),
    },
    categories: config.categories,
  };
}
