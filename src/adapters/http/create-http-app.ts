// The Koa application of the interface: error handling outermost, then the /v1 routes.
import Koa from 'koa';
import type { Logger } from 'pino';
import type { ApiKeyVerifier } from '../../domain/index.js';
import { authenticate } from './authenticate.js';
import { errorMiddleware } from './error-middleware.js';
import { methodNotAllowed } from './method-not-allowed.js';
import { type PetUseCases, petRoutes } from './pet-routes.js';
import { jsonBodyReader } from './read-json-body.js';
import { serveDeprecationNotes } from './serve-deprecation-notes.js';

/** The largest request body accepted, in bytes; a valid NewPet is far smaller. */
export const DEFAULT_BODY_LIMIT_BYTES = 16 * 1024;

export interface HttpAppDependencies {
  readonly useCases: PetUseCases;
  readonly apiKeyVerifier: ApiKeyVerifier;
  readonly logger: Logger;
  readonly bodyLimitBytes?: number;
}

export const API_BASE_PATH = '/v1';

export function createHttpApp(deps: HttpAppDependencies): Koa {
  const app = new Koa();
  // Every error is answered by errorMiddleware; Koa must not print one (with its stack) as well.
  app.silent = true;
  const pets = petRoutes(
    deps.useCases,
    authenticate(deps.apiKeyVerifier),
    jsonBodyReader(deps.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES),
    API_BASE_PATH,
    deps.logger,
  );
  app.use(errorMiddleware(deps.logger));
  app.use(methodNotAllowed());
  app.use(serveDeprecationNotes());
  app.use(pets.routes());
  return app;
}
