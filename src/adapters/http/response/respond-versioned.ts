// The answers of a versioned resource (a pet, an order, a category): its ETag beside it, and
// the conditional GET of RFC 9110 §13.2.2, the same for every kind.
import type { Context } from 'koa';
import * as E from 'fp-ts/lib/Either.js';
import { type DomainError, failedCondition, type PetVersion } from '../../../domain/index.js';
import { petETag } from '../request/entity-tags.js';
import { conditionOf } from '../request/preconditions.js';
import { respond } from './respond.js';

/** Answers the resource `resourceOf` picks from `result`, with its ETag, or the error. */
export function respondVersioned<V extends { readonly version: PetVersion }>(
  ctx: Context,
  result: E.Either<DomainError, V>,
  resourceOf: (versioned: V) => { readonly id: number },
  status = 200,
): void {
  if (E.isRight(result)) ctx.response.set('ETag', petETag(resourceOf(result.right).id, result.right.version));
  respond(ctx, E.map(resourceOf)(result), status);
}

/**
 * For a GET of resource `id` at `version`: 412 (`preconditionFailed` of the id) when If-Match
 * names none of its version, then 304 with its ETag and no body when If-None-Match names it.
 * Whether it answered.
 */
export function answeredCondition<I extends number>(
  ctx: Context,
  id: I,
  version: PetVersion,
  preconditionFailed: (id: I) => DomainError,
): boolean {
  const failed = failedCondition(version, conditionOf(ctx, id));
  if (failed === 'expected') respond(ctx, E.left(preconditionFailed(id)), 200);
  else if (failed === 'excluded') {
    ctx.response.set('ETag', petETag(id, version));
    ctx.response.status = 304;
  }
  return failed !== undefined;
}
