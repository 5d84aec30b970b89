// The {petId} of /pets/{petId}, read once before the operation (and before its body): a
// malformed id is answered 400 invalid_parameter naming petId, as for every operation of the path.
import * as E from 'fp-ts/lib/Either.js';
import type { Context, Middleware } from 'koa';
import { type PetId, type PetNotFound, petNotFound } from '../../../domain/index.js';
import { sendError } from '../errors/send-error.js';
import { invalidInput } from '../response/respond.js';
import { PetPathParams } from './parameters.js';

const STATE_KEY = 'petId';

/** Decodes the path's petId for {@link petIdOf}, or answers 400 naming it. */
export const readPetId: Middleware = async (ctx, next) => {
  const params = PetPathParams.decode((ctx as Context & { params: unknown }).params);
  if (E.isLeft(params)) return sendError(ctx, invalidInput('path', params.left));
  ctx.state[STATE_KEY] = params.right.petId;
  await next();
};

/**
 * The pet id readPetId decoded; a well-formed int64 beyond 2^53−1 is an id no pet can have
 * (the service never assigns one), so it is answered PetNotFound without asking the storage.
 */
export function petIdOf(ctx: Context): E.Either<PetNotFound, PetId> {
  const petId = ctx.state[STATE_KEY] as bigint;
  const id = Number(petId);
  return Number.isSafeInteger(id) ? E.right(id as PetId) : E.left(petNotFound(petId));
}
