// The container: the use cases, the HTTP app and its server, built on the ports that
// port-bindings.ts chooses adapters for. Every caller (createPetStore, serve, the workers'
// primary, migrate, keys) builds its container here, from one typed ContainerOptions. Domain
// code never sees inversify; it is built here from its ports with toResolvedValue.
import 'reflect-metadata';
import type Router from '@koa/router';
import { Container } from 'inversify';
import type Koa from 'koa';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { createHttpApp, createHttpRouter, type HttpAppOptions } from '../adapters/http/create-http-app.js';
import { type RunningHttpServer, startHttpServer } from '../adapters/http/http-server.js';
import type { StoreUseCases } from '../adapters/http/handlers/order-handlers.js';
import type { Tracing } from '../adapters/shared/tracing.js';
import { adaptersProblem, type ContainerOptions, EVENTS_OPTION_DEFAULTS } from './container-options.js';
import {
  type ApiKeyAdmin,
  apiKeyAdmin,
  type ApiKeyGenerator,
  type ApiKeyStore,
  type CategoryRule,
  type Clock,
  type CredentialVerifier,
  type CreatePet,
  createPet,
  type CreatePetOnce,
  createPetOnce,
  type DeletePet,
  type IdempotencyStore,
  type PetRepository,
  deletePet,
  type GetPet,
  getPet,
  type GetVersionedPet,
  getVersionedPet,
  type UpdatePet,
  updatePet,
  isActiveApiKey,
  type ListPets,
  type OpenOrders,
  listPets,
  type RateLimitStore,
  type ReadinessCheck,
  type ServiceState,
} from '../domain/index.js';
import type { CategoryUseCases } from '../adapters/http/handlers/category-handlers.js';
import { bindCategories } from './category-bindings.js';
import { bindEvents } from './event-bindings.js';
import { bindJwt } from './jwt-bindings.js';
import { bindPorts } from './port-bindings.js';
import { bindRateLimitStore } from './rate-limit-store-binding.js';
import { bindStore } from './store-bindings.js';
import { TOKENS } from './tokens.js';
import { bindTracing, bindUseCase } from './tracing-bindings.js';
import { bindWebhooks } from './webhook-bindings.js';

/**
 * A container for `options`. Every binding is a singleton, built at its first resolution; a
 * port given in `options.adapters` is bound to it, and the one of `options.database` is
 * never built. Resolve with `getAsync`: opening PostgreSQL (connecting, migrating) is
 * asynchronous, and so is everything built on it. Close it with {@link closeContainer}.
 *
 * @throws TypeError when `options.adapters` gives `petRepository` without `idempotencyStore`, or the other way round
 */
export function createContainer(options: ContainerOptions): Container {
  const problem = adaptersProblem(options.adapters ?? {});
  if (problem !== undefined) throw new TypeError(`createContainer: ${problem}`);
  const container = new Container({ defaultScope: 'Singleton' });
  container.bind<Logger>(TOKENS.Logger).toConstantValue(options.logger);
  bindTracing(container, options);
  bindPorts(container, options);
  bindJwt(container, options);
  container.bind<ServiceState>(TOKENS.ServiceState).toConstantValue({ draining: false });
  bindApiKeys(container, options);
  bindWebhooks(container, options.events?.webhookConcurrency ?? EVENTS_OPTION_DEFAULTS.webhookConcurrency);
  bindPetUseCases(container, options.categories ?? 'open');
  bindStore(container, options);
  bindCategories(container, options);
  bindRateLimitStore(container, options);
  bindEvents(container, options);
  bindHttp(container, options);
  return container;
}

// Each use case on the ports it needs, in a span of its own when tracing is on.
function bindPetUseCases(container: Container, rule: CategoryRule): void {
  bindUseCase<ListPets>(container, TOKENS.ListPets, 'listPets', listPets, [TOKENS.PetRepository]);
  bindUseCase<CreatePet>(container, TOKENS.CreatePet, 'createPet', (pets: PetRepository) => createPet(pets, rule), [TOKENS.PetRepository]);
  bindUseCase<GetPet>(container, TOKENS.GetPet, 'getPet', getPet, [TOKENS.PetRepository]);
  bindUseCase<GetVersionedPet>(container, TOKENS.GetVersionedPet, 'getVersionedPet', getVersionedPet, [TOKENS.PetRepository]);
  bindUseCase<UpdatePet>(
    container,
    TOKENS.UpdatePet,
    'updatePet',
    (pets: PetRepository, orders: OpenOrders) => updatePet(pets, orders, rule),
    [TOKENS.PetRepository, TOKENS.OpenOrders],
  );
  bindUseCase<DeletePet>(container, TOKENS.DeletePet, 'deletePet', deletePet, [TOKENS.PetRepository, TOKENS.OpenOrders]);
  bindUseCase<CreatePetOnce>(
    container,
    TOKENS.CreatePetOnce,
    'createPetOnce',
    (pets: PetRepository, store: IdempotencyStore, clock: Clock) => createPetOnce(pets, store, clock, rule),
    [TOKENS.PetRepository, TOKENS.IdempotencyStore, TOKENS.Clock],
  );
}

// The Koa app over the use cases, and the server that runs it.
function bindHttp(container: Container, options: ContainerOptions): void {
  container.bind<HttpAppOptions>(TOKENS.HttpAppOptions).toConstantValue(options.http ?? {});
  container.bind<Router>(TOKENS.HttpRouter).toResolvedValue(createHttpRouter);
  container.bind<Koa>(TOKENS.HttpApp).toResolvedValue(
    (
      list: ListPets,
      create: CreatePet,
      createOnce: CreatePetOnce,
      get: GetPet,
      getVersioned: GetVersionedPet,
      update: UpdatePet,
      remove: DeletePet,
      credentialVerifier: CredentialVerifier,
      log: Logger,
      readiness: ReadinessCheck,
      credentialsReadiness: ReadinessCheck,
      state: ServiceState,
      rateLimitStore: RateLimitStore,
      httpOptions: HttpAppOptions,
      router: Router,
      metricsRegistry: Registry,
      storeUseCases: StoreUseCases | undefined,
      tracing: Tracing | undefined,
      categoryUseCases: CategoryUseCases,
    ) =>
      createHttpApp({
        ...(tracing === undefined ? {} : { requestSpans: tracing.requestSpans }),
        ...(storeUseCases === undefined ? {} : { storeUseCases }),
        useCases: {
          listPets: list,
          createPet: create,
          createPetOnce: createOnce,
          getPet: get,
          getVersionedPet: getVersioned,
          updatePet: update,
          deletePet: remove,
        },
        credentialVerifier,
        logger: log,
        readiness,
        credentialsReadiness,
        state,
        rateLimitStore,
        options: httpOptions,
        router,
        metricsRegistry,
        categoryUseCases,
      }),
    [
      TOKENS.ListPets,
      TOKENS.CreatePet,
      TOKENS.CreatePetOnce,
      TOKENS.GetPet,
      TOKENS.GetVersionedPet,
      TOKENS.UpdatePet,
      TOKENS.DeletePet,
      TOKENS.CredentialVerifier,
      TOKENS.Logger,
      TOKENS.ReadinessCheck,
      TOKENS.CredentialsReadiness,
      TOKENS.ServiceState,
      TOKENS.RateLimitStore,
      TOKENS.HttpAppOptions,
      TOKENS.HttpRouter,
      TOKENS.MetricsRegistry,
      TOKENS.StoreUseCases,
      TOKENS.Tracing,
      TOKENS.CategoryUseCases,
    ],
  );
  container
    .bind<StartHttpServer>(TOKENS.HttpServer)
    .toResolvedValue((app: Koa) => (address) => startHttpServer(app.callback(), address), [TOKENS.HttpApp]);
}

/** Starts the container's app on a node:http server with the service's limits; resolves once it listens. */
export type StartHttpServer = (address: { readonly host: string; readonly port: number }) => Promise<RunningHttpServer>;

// The key generated for this run, when it may have one and needs one; the keys the verifier takes as they are.
function bindApiKeys(container: Container, options: ContainerOptions): void {
  const mayGenerate = options.generateKeyWhenNone === true && options.apiKeys.length === 0;
  const unlessStored = async (store: ApiKeyStore, keys: ApiKeyGenerator, clock: Clock) =>
    (await store.list()).some((record) => isActiveApiKey(record, clock.now())) ? undefined : keys.generate();
  // Always on the store, so that resolving it opens (and migrates) the database, whether a key is generated or not.
  container
    .bind<string | undefined>(TOKENS.GeneratedApiKey)
    .toResolvedValue(
      (store: ApiKeyStore, keys: ApiKeyGenerator, clock: Clock) => (mayGenerate ? unlessStored(store, keys, clock) : undefined),
      [TOKENS.ApiKeyStore, TOKENS.ApiKeyGenerator, TOKENS.Clock],
    );
  container
    .bind<readonly string[]>(TOKENS.StaticApiKeys)
    .toResolvedValue((key: string | undefined) => (key === undefined ? options.apiKeys : [key]), [TOKENS.GeneratedApiKey]);
  container.bind<ApiKeyAdmin>(TOKENS.ApiKeyAdmin).toResolvedValue(apiKeyAdmin, [TOKENS.ApiKeyStore, TOKENS.Clock, TOKENS.ApiKeyGenerator]);
}

/**
 * The key generated for this run (see `generateKeyWhenNone`), or undefined when none was:
 * keys are configured or stored, or generation is off. It resolves the ApiKeyStore in every
 * case, so the database is open (and migrated) once it answers, which the workers' primary
 * relies on before it forks.
 */
export const generatedApiKey = (container: Container): Promise<string | undefined> =>
  container.getAsync<string | undefined>(TOKENS.GeneratedApiKey);

/** Releases what the container opened (the SQLite database or the PostgreSQL pool, and the Redis client, if one was used). */
export async function closeContainer(container: Container): Promise<void> {
  await container.unbindAllAsync();
}
