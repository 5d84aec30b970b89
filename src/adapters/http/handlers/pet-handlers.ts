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
  FIRST_PET_VERSION,
  type GetPet,
  type GetVersionedPet,
  type ListPets,
  type ListPetsRequest,
  NewPet,
  type Pet,
  type PetPage,
  PetPatch,
  preconditionFailed,
  type UpdatePet,
  type VersionedPet,
} from '../../../domain/index.js';
import { petETag } from '../request/entity-tags.js';
import { idempotencyKeyOf } from '../request/idempotency-key-header.js';
import { encodeCursor } from '../request/page-cursor.js';
import { ListPetsQuery } from '../request/parameters.js';
import { petIdOf } from '../request/pet-id-path.js';
import { decodedInput, respond } from '../response/respond.js';
import { KeysetList } from './keyset-list.js';
import { announceCreated, VersionedResource } from './versioned-resource.js';

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

/** Pets, as their handlers answer them. */
const pets = new VersionedResource({ idOf: petIdOf, resourceOf: (versioned: VersionedPet) => versioned.pet, preconditionFailed });

/** The pet list: by status and by category, its cursor keeping both. */
const petList = new KeysetList({
  query: ListPetsQuery,
  requestOf: ({ limit = DEFAULT_LIMIT, status, categoryId, cursor }): ListPetsRequest => ({
    limit,
    ...(status === undefined ? {} : { status }),
    ...(categoryId === undefined ? {} : { categoryId }),
    ...(cursor === undefined ? {} : { afterId: cursor.afterId }),
  }),
  itemsOf: (page: PetPage) => page.pets,
  cursorAfter: ({ status, categoryId }, last) => encodeCursor({ afterId: last.id, status, categoryId }),
});

/** The handlers of /v1/pets and /v1/pets/{petId}, over the use cases. Each is bound, to be given to a route as it is. */
export class PetHandlers {
  constructor(private readonly useCases: PetUseCases) {}

  /** GET /pets: one page of pets, with `Link: rel="next"` when more follow. */
  readonly listPets: RouterMiddleware = (ctx) => petList.answer(ctx, (request) => this.useCases.listPets(request)());

  /** POST /pets: creates a pet from the JSON body (read by jsonBody), once per Idempotency-Key (read by readIdempotencyKey) when one is sent. */
  readonly createPet: RouterMiddleware = async (ctx) => {
    const key = idempotencyKeyOf(ctx);
    const newPet = decodedInput(ctx, 'body', NewPet, ctx.request.body);
    if (newPet === undefined) return;
    const created =
      key === undefined
        ? E.map((pet: Pet) => ({ pet, replayed: false }))(await this.useCases.createPet(newPet)())
        : await this.useCases.createPetOnce({ scope: callerOf(ctx).id, key, newPet })();
    if (E.isRight(created)) {
      announceCreated(ctx, created.right.pet.id, created.right.replayed);
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
  readonly getPet: RouterMiddleware = (ctx) => pets.get(ctx, (id) => this.useCases.getVersionedPet(id)());

  /** PATCH /pets/{petId}: a JSON merge patch of the pet (read by the merge-patch body), conditional on If-Match and If-None-Match when sent. */
  readonly updatePet: RouterMiddleware = (ctx) => pets.patch(ctx, PetPatch, (request) => this.useCases.updatePet(request));

  /** DELETE /pets/{petId}: 204 with no body, conditional on If-Match and If-None-Match when sent. */
  readonly deletePet: RouterMiddleware = (ctx) => pets.remove(ctx, (request) => this.useCases.deletePet(request));
}
