// The operations of the interface on pets, one named handler each: decode at the edge (io-ts),
// run the use case, respond. Authentication, rate limiting and the body's reading run before
// them, as the routes declare (http-routes.ts).
import type { RouterContext, RouterMiddleware } from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import {
  type Caller,
  type CreatePet,
  type CreatePetOnce,
  DEFAULT_LIMIT,
  type DeletePet,
  type DomainError,
  FIRST_PET_VERSION,
  type GetPet,
  type GetVersionedPet,
  type ListPets,
  NewPet,
  type Pet,
  type PetId,
  PetPatch,
  preconditionFailed,
  type UpdatePet,
  type VersionedPet,
} from '../../../domain/index.js';
import { apiError } from '../errors/error-catalogue.js';
import { idempotencyKeyOf } from '../request/idempotency-key-header.js';
import { encodeCursor } from '../request/page-cursor.js';
import { petETag } from '../request/entity-tags.js';
import { conditionOf } from '../request/preconditions.js';
import { ListPetsQuery } from '../request/parameters.js';
import { petIdOf } from '../request/pet-id-path.js';
import { queryParameters } from '../request/query-parameters.js';
import { requestPath } from '../request/request-path.js';
import { invalidInput, respond } from '../response/respond.js';
import { answeredCondition, respondVersioned } from '../response/respond-versioned.js';
import { sendError } from '../errors/send-error.js';

/** The use cases the HTTP adapter serves: one per operation, and the idempotent creation. */
export interface PetUseCases {
  readonly listPets: ListPets;
  readonly createPet: CreatePet;
  readonly createPetOnce: CreatePetOnce;
  readonly getPet: GetPet;
  /** getPet with the pet's version, for its ETag: what GET /pets/{petId} answers since interface 1.1. */
  readonly getVersionedPet: GetVersionedPet;
  readonly updatePet: UpdatePet;
  readonly deletePet: DeletePet;
}

/** The caller authenticate() let through. */
const callerOf = (ctx: RouterContext): Caller => ctx.state['caller'] as Caller;

/** Runs `operation` on the path's pet id (read by readPetId); an id no pet can have is PetNotFound at once. */
const onPathPet = async <A>(ctx: RouterContext, operation: (id: PetId) => Promise<E.Either<DomainError, A>>) => {
  const id = petIdOf(ctx);
  return E.isLeft(id) ? id : operation(id.right);
};

/** Answers a pet with its ETag, or the error. */
const respondPet = (ctx: RouterContext, result: E.Either<DomainError, VersionedPet>): void =>
  respondVersioned(ctx, result, (versioned) => versioned.pet);

/** The filter a cursor was issued for, in words. */
const filterText = (status: string | undefined, categoryId: number | undefined): string =>
  status === undefined && categoryId === undefined
    ? 'the list without status or categoryId'
    : [status === undefined ? '' : `status=${status}`, categoryId === undefined ? '' : `categoryId=${categoryId}`]
        .filter((part) => part !== '')
        .join(' and ');

/** The handlers of /v1/pets and /v1/pets/{petId}, over the use cases. Each is bound, to be given to a route as it is. */
export class PetHandlers {
  constructor(private readonly useCases: PetUseCases) {}

  /** GET /pets: one page of pets, with `Link: rel="next"` when more follow. */
  readonly listPets: RouterMiddleware = async (ctx) => {
    const query = ListPetsQuery.decode(queryParameters(ctx.request.querystring));
    if (E.isLeft(query)) return sendError(ctx, invalidInput('query', query.left));
    const { limit = DEFAULT_LIMIT, status, categoryId, cursor } = query.right;
    if (cursor !== undefined && (cursor.status !== status || cursor.categoryId !== categoryId)) {
      const message = `was issued for ${filterText(cursor.status, cursor.categoryId)}: send the same filter with it`;
      return sendError(
        ctx,
        apiError('invalid_parameter', `Invalid query parameter: cursor ${message}`, {
          details: [{ in: 'query', field: 'cursor', message }],
        }),
      );
    }
    const page = await this.useCases.listPets({
      limit,
      ...(status === undefined ? {} : { status }),
      ...(categoryId === undefined ? {} : { categoryId }),
      ...(cursor === undefined ? {} : { afterId: cursor.afterId }),
    })();
    if (E.isRight(page) && page.right.hasMore) {
      const last = page.right.pets[page.right.pets.length - 1]!;
      const next = encodeCursor({ afterId: last.id, status, categoryId });
      const filter = `${status === undefined ? '' : `&status=${status}`}${categoryId === undefined ? '' : `&categoryId=${categoryId}`}`;
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
      // A pet is created at its first version; a replay answers the pet as created, so the same ETag.
      ctx.response.set('ETag', petETag(created.right.pet.id, FIRST_PET_VERSION));
    }
    respond(ctx, E.map((c: { pet: unknown }) => c.pet)(created), 201);
  };

  /**
   * GET /pets/{petId}: one pet, with its ETag; 412 when If-Match names none of its version,
   * then 304 with no body when If-None-Match names it (RFC 9110 §13.2.2).
   * Deprecated by the interface (removal on 2030-12-05); kept working until then.
   */
  readonly getPet: RouterMiddleware = async (ctx) => {
    const found = await onPathPet(ctx, (id) => this.useCases.getVersionedPet(id)());
    if (E.isRight(found)) {
      const { pet, version } = found.right;
      if (answeredCondition(ctx, pet.id, version, () => preconditionFailed(pet.id))) return;
    }
    respondPet(ctx, found);
  };

  /** PATCH /pets/{petId}: a JSON merge patch of the pet (read by the merge-patch body), conditional on If-Match and If-None-Match when sent. */
  readonly updatePet: RouterMiddleware = async (ctx) => {
    const patch = PetPatch.decode(ctx.request.body);
    if (E.isLeft(patch)) return sendError(ctx, invalidInput('body', patch.left));
    respondPet(ctx, await onPathPet(ctx, (id) => this.useCases.updatePet({ id, patch: patch.right, ...conditionOf(ctx, id) })()));
  };

  /** DELETE /pets/{petId}: 204 with no body, conditional on If-Match and If-None-Match when sent. */
  readonly deletePet: RouterMiddleware = async (ctx) => {
    const deleted = await onPathPet(ctx, (id) => this.useCases.deletePet({ id, ...conditionOf(ctx, id) })());
    if (E.isLeft(deleted)) return respond(ctx, deleted, 204);
    ctx.response.status = 204;
  };
}
