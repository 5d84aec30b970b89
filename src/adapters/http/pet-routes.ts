// The three operations of the interface, each: authenticate, decode at the edge, run the use case, respond.
import * as E from 'fp-ts/lib/Either.js';
import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import {
  type Caller,
  type CreatePet,
  type CreatePetOnce,
  DEFAULT_LIMIT,
  type GetPet,
  type ListPets,
  NewPet,
  type Pet,
  type PetId,
  petNotFound,
} from '../../domain/index.js';
import { apiError } from './error-catalogue.js';
import { markDeprecated } from './deprecation.js';
import { requestPath } from './request-path.js';
import { IDEMPOTENCY_KEY_HEADER, parseIdempotencyKey } from './idempotency-key-header.js';
import { encodeCursor } from './page-cursor.js';
import { ListPetsQuery, PetPathParams } from './parameters.js';
import { queryParameters } from './query-parameters.js';
import type { ReadJsonBody } from './read-json-body.js';
import { invalidInput, respond } from './respond.js';
import { type Route, routeParams } from './route-table.js';
import { sendError } from './send-error.js';

/** The use cases the HTTP adapter serves: one per operation, and the idempotent creation. */
export interface PetUseCases {
  readonly listPets: ListPets;
  readonly createPet: CreatePet;
  readonly createPetOnce: CreatePetOnce;
  readonly getPet: GetPet;
}


export function petRoutes(
  useCases: PetUseCases,
  guard: readonly Middleware[],
  readJsonBody: ReadJsonBody,
  prefix: string,
  logger: Logger,
): Route[] {
  const caller = (ctx: Context): Caller => ctx.state['caller'] as Caller;

  const listPets: Middleware = async (ctx) => {
    const query = ListPetsQuery.decode(queryParameters(ctx));
    if (E.isLeft(query)) return sendError(ctx, invalidInput('query', query.left));
    const { limit = DEFAULT_LIMIT, status, cursor } = query.right;
    if (cursor !== undefined && cursor.status !== status) {
      const issuedFor = cursor.status === undefined ? 'the list without status' : `status=${cursor.status}`;
      const message = `was issued for ${issuedFor}: send the same status with it`;
      return sendError(ctx, apiError('invalid_parameter', `Invalid query parameter: cursor ${message}`, {
        details: [{ in: 'query', field: 'cursor', message }],
      }));
    }
    const page = await useCases.listPets({
      limit,
      ...(status === undefined ? {} : { status }),
      ...(cursor === undefined ? {} : { afterId: cursor.afterId }),
    })();
    if (E.isRight(page) && page.right.hasMore) {
      const last = page.right.pets[page.right.pets.length - 1]!;
      const next = encodeCursor({ afterId: last.id, status });
      const filter = status === undefined ? '' : `&status=${status}`;
      ctx.set('Link', `<${requestPath(ctx)}?limit=${limit}${filter}&cursor=${next}>; rel="next"`);
    }
    respond(ctx, E.map((p: { pets: unknown }) => p.pets)(page), 200);
  };

  const createPet: Middleware = async (ctx) => {
    // Read raw: ctx.get() answers '' for an absent header too, and an empty key must be refused.
    const key = parseIdempotencyKey(ctx.request.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()] as string | undefined);
    if (E.isLeft(key)) {
      return sendError(ctx, apiError('invalid_parameter', `Invalid header parameter: ${IDEMPOTENCY_KEY_HEADER} ${key.left}`, {
        details: [{ in: 'header', field: IDEMPOTENCY_KEY_HEADER, message: key.left }],
      }));
    }
    const body = await readJsonBody(ctx);
    if (E.isLeft(body)) return sendError(ctx, body.left);
    const newPet = NewPet.decode(body.right);
    if (E.isLeft(newPet)) return sendError(ctx, invalidInput('body', newPet.left));
    const created =
      key.right === undefined
        ? E.map((pet: Pet) => ({ pet, replayed: false }))(await useCases.createPet(newPet.right)())
        : await useCases.createPetOnce({ scope: caller(ctx).id, key: key.right, newPet: newPet.right })();
    if (E.isRight(created)) {
      ctx.set('Location', `${requestPath(ctx).replace(/\/$/, '')}/${created.right.pet.id}`);
      if (created.right.replayed) ctx.set('Idempotent-Replayed', 'true');
    }
    respond(ctx, E.map((c: { pet: unknown }) => c.pet)(created), 201);
  };

  const getPet: Middleware = async (ctx) => {
    if (logger.isLevelEnabled('info')) {
      logger.info({ caller: caller(ctx).id, operation: 'getPet', requestId: ctx.state['requestId'] }, 'deprecated operation called');
    }
    const params = PetPathParams.decode(routeParams(ctx));
    if (E.isLeft(params)) return sendError(ctx, invalidInput('path', params.left));
    const { petId } = params.right;
    const id = Number(petId);
    // A valid int64 beyond 2^53−1 is an id no pet can have: the service never assigns one.
    const result = Number.isSafeInteger(id) ? await useCases.getPet(id as PetId)() : E.left(petNotFound(petId));
    respond(ctx, result, 200);
  };

  return [
    { method: 'GET', path: `${prefix}/pets`, handlers: [...guard, listPets] },
    { method: 'POST', path: `${prefix}/pets`, handlers: [...guard, createPet] },
    // Deprecated by the interface (removal on 2030-12-05); kept working until then.
    { method: 'GET', path: `${prefix}/pets/:petId`, handlers: [markDeprecated(`${prefix}/pets`), ...guard, getPet] },
  ];
}
