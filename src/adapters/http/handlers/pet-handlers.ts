// The three operations of the interface, one named handler each: decode at the edge (io-ts),
// run the use case, respond. Authentication, rate limiting and the body's reading run before
// them, as the routes declare (http-routes.ts).
import type { RouterContext, RouterMiddleware } from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
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
} from '../../../domain/index.js';
import { apiError } from '../errors/error-catalogue.js';
import { idempotencyKeyOf } from '../request/idempotency-key-header.js';
import { encodeCursor } from '../request/page-cursor.js';
import { ListPetsQuery, PetPathParams } from '../request/parameters.js';
import { queryParameters } from '../request/query-parameters.js';
import { requestPath } from '../request/request-path.js';
import { invalidInput, respond } from '../response/respond.js';
import { sendError } from '../errors/send-error.js';

/** The use cases the HTTP adapter serves: one per operation, and the idempotent creation. */
export interface PetUseCases {
  readonly listPets: ListPets;
  readonly createPet: CreatePet;
  readonly createPetOnce: CreatePetOnce;
  readonly getPet: GetPet;
}

/** The caller authenticate() let through. */
const callerOf = (ctx: RouterContext): Caller => ctx.state['caller'] as Caller;

/** The handlers of /v1/pets and /v1/pets/{petId}, over the use cases. Each is bound, to be given to a route as it is. */
export class PetHandlers {
  constructor(private readonly useCases: PetUseCases) {}

  /** GET /pets: one page of pets, with `Link: rel="next"` when more follow. */
  readonly listPets: RouterMiddleware = async (ctx) => {
    const query = ListPetsQuery.decode(queryParameters(ctx.request.querystring));
    if (E.isLeft(query)) return sendError(ctx, invalidInput('query', query.left));
    const { limit = DEFAULT_LIMIT, status, cursor } = query.right;
    if (cursor !== undefined && cursor.status !== status) {
      const issuedFor = cursor.status === undefined ? 'the list without status' : `status=${cursor.status}`;
      const message = `was issued for ${issuedFor}: send the same status with it`;
      return sendError(ctx, apiError('invalid_parameter', `Invalid query parameter: cursor ${message}`, {
        details: [{ in: 'query', field: 'cursor', message }],
      }));
    }
    const page = await this.useCases.listPets({
      limit,
      ...(status === undefined ? {} : { status }),
      ...(cursor === undefined ? {} : { afterId: cursor.afterId }),
    })();
    if (E.isRight(page) && page.right.hasMore) {
      const last = page.right.pets[page.right.pets.length - 1]!;
      const next = encodeCursor({ afterId: last.id, status });
      const filter = status === undefined ? '' : `&status=${status}`;
      ctx.response.set('Link', `<${requestPath(ctx)}?limit=${limit}${filter}&cursor=${next}>; rel="next"`);
    }
    respond(ctx, E.map((p: { pets: unknown }) => p.pets)(page), 200);
  };

  /** POST /pets: creates a pet from the JSON body (read by jsonBody), once per Idempotency-Key (read by readIdempotencyKey) when one is sent. */
  readonly createPet: RouterMiddleware = async (ctx) => {
    const key = idempotencyKeyOf(ctx);
    const newPet = NewPet.decode(ctx.request.body);
    if (E.isLeft(newPet)) return sendError(ctx, invalidInput('body', newPet.left));
    const created =
      key === undefined
        ? E.map((pet: Pet) => ({ pet, replayed: false }))(await this.useCases.createPet(newPet.right)())
        : await this.useCases.createPetOnce({ scope: callerOf(ctx).id, key, newPet: newPet.right })();
    if (E.isRight(created)) {
      ctx.response.set('Location', `${requestPath(ctx).replace(/\/$/, '')}/${created.right.pet.id}`);
      if (created.right.replayed) ctx.response.set('Idempotent-Replayed', 'true');
    }
    respond(ctx, E.map((c: { pet: unknown }) => c.pet)(created), 201);
  };

  /** GET /pets/{petId}: one pet. Deprecated by the interface (removal on 2030-12-05); kept working until then. */
  readonly getPet: RouterMiddleware = async (ctx) => {
    const params = PetPathParams.decode(ctx.params);
    if (E.isLeft(params)) return sendError(ctx, invalidInput('path', params.left));
    const { petId } = params.right;
    const id = Number(petId);
    // A valid int64 beyond 2^53−1 is an id no pet can have: the service never assigns one.
    const result = Number.isSafeInteger(id) ? await this.useCases.getPet(id as PetId)() : E.left(petNotFound(petId));
    respond(ctx, result, 200);
  };
}
