// The three operations of the interface, each: authenticate, decode at the edge, run the use case, respond.
import Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type { Middleware } from 'koa';
import { type CreatePet, DEFAULT_LIMIT, type GetPet, type ListPets, NewPet, petNotFound, type PetId } from '../../domain/index.js';
import { ListPetsQuery, PetPathParams } from './parameters.js';
import type { ReadJsonBody } from './read-json-body.js';
import { invalidInput, respond } from './respond.js';
import { sendError } from './send-error.js';

export interface PetUseCases {
  readonly listPets: ListPets;
  readonly createPet: CreatePet;
  readonly getPet: GetPet;
}

export function petRoutes(
  useCases: PetUseCases,
  authenticate: Middleware,
  readJsonBody: ReadJsonBody,
  prefix: string,
): Router {
  const router = new Router({ prefix, sensitive: true });

  router.get('listPets', '/pets', authenticate, async (ctx) => {
    const query = ListPetsQuery.decode(ctx.query);
    if (E.isLeft(query)) return sendError(ctx, invalidInput('query', query.left));
    const { limit = DEFAULT_LIMIT, status } = query.right;
    respond(ctx, await useCases.listPets(status === undefined ? { limit } : { limit, status })(), 200);
  });

  router.post('createPet', '/pets', authenticate, async (ctx) => {
    const body = await readJsonBody(ctx);
    if (E.isLeft(body)) return sendError(ctx, body.left);
    const newPet = NewPet.decode(body.right);
    if (E.isLeft(newPet)) return sendError(ctx, invalidInput('body', newPet.left));
    respond(ctx, await useCases.createPet(newPet.right)(), 201);
  });

  // Deprecated by the interface (removal on 2030-12-05); kept working until then.
  router.get('getPet', '/pets/:petId', authenticate, async (ctx) => {
    const params = PetPathParams.decode(ctx.params);
    if (E.isLeft(params)) return sendError(ctx, invalidInput('path', params.left));
    const { petId } = params.right;
    const id = Number(petId);
    // A valid int64 beyond 2^53−1 is an id no pet can have: the service never assigns one.
    const result = Number.isSafeInteger(id) ? await useCases.getPet(id as PetId)() : E.left(petNotFound(petId));
    respond(ctx, result, 200);
  });

  return router;
}
