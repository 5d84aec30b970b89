// The service as a library, in one call: the composition root built from options rather
// than from the environment, with any port replaced by the caller's own adapter.
import 'reflect-metadata';
import type Router from '@koa/router';
import type { Container } from 'inversify';
import type Koa from 'koa';
import type { ApiKeyAdmin } from '../domain/use-cases/api-key-admin.js';
import type { PetUseCases } from '../adapters/http/handlers/pet-handlers.js';
import type { EventSubscriber, InProcessSubscribers } from '../adapters/relay/in-process-subscribers.js';
import type { StartEventRelay } from './event-bindings.js';
import { closeContainer, createContainer } from './container.js';
import type { ServiceState } from '../domain/index.js';
import { containerOptionsOf, type PetStoreOptions } from './pet-store-options.js';
import { TOKENS } from './tokens.js';

export type { PetStoreOptions } from './pet-store-options.js';

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
