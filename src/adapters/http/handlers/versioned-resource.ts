// What the handlers of every versioned resource (pets, orders, categories) do alike, set up
// once per kind: run a use case on the id in the path, answer the resource with its ETag or
// the error, and answer a GET's conditions, a PATCH's merge patch and a DELETE's 204; and the
// headers of a creation.
import type { Context } from 'koa';
import * as E from 'fp-ts/lib/Either.js';
import type { TaskEither } from 'fp-ts/lib/TaskEither.js';
import type * as t from 'io-ts';
import type { ChangeRequest, DomainError, PatchRequest, PetVersion } from '../../../domain/index.js';
import { conditionOf } from '../request/preconditions.js';
import { requestPath } from '../request/request-path.js';
import { decodedInput, respond } from '../response/respond.js';
import { answeredCondition, respondVersioned } from '../response/respond-versioned.js';

type Outcome<A> = Promise<E.Either<DomainError, A>>;

/** A kind of versioned resource, as its handlers answer it. */
export interface ResourceKind<I extends number, V extends { readonly version: PetVersion }> {
  /** The id of the path (read before by its middleware), or the NotFound of an id no resource of the kind can have. */
  readonly idOf: (ctx: Context) => E.Either<DomainError, I>;
  /** What the body of an answer holds: the resource without its version. */
  readonly resourceOf: (versioned: V) => { readonly id: I };
  /** The 412 of a GET whose If-Match names none of the resource's versions; none where a GET takes no condition. */
  readonly preconditionFailed?: (id: I) => DomainError;
}

/** The answers of one kind of versioned resource, for its handlers. */
export class VersionedResource<I extends number, V extends { readonly version: PetVersion }> {
  constructor(private readonly kind: ResourceKind<I, V>) {}

  /** Runs `operation` on the path's id; an id no resource of the kind can have is its NotFound at once. */
  async onPath<A>(ctx: Context, operation: (id: I) => Outcome<A>): Outcome<A> {
    const id = this.kind.idOf(ctx);
    return E.isLeft(id) ? id : operation(id.right);
  }

  /** Answers the resource of `result` with its ETag, or the error. */
  respond(ctx: Context, result: E.Either<DomainError, V>, status = 200): void {
    respondVersioned(ctx, result, this.kind.resourceOf, status);
  }

  /**
   * GET: the resource `find` answers for the path's id, with its ETag; where the kind has a
   * precondition, 412 when If-Match names none of its version, then 304 with no body when
   * If-None-Match names it (RFC 9110 §13.2.2).
   */
  async get(ctx: Context, find: (id: I) => Outcome<V>): Promise<void> {
    const found = await this.onPath(ctx, find);
    const { preconditionFailed } = this.kind;
    if (E.isRight(found) && preconditionFailed !== undefined) {
      const { id } = this.kind.resourceOf(found.right);
      if (answeredCondition(ctx, id, found.right.version, preconditionFailed)) return;
    }
    this.respond(ctx, found);
  }

  /** PATCH: the merge patch of the body (`codec`) made by `change` on the path's id, as If-Match and If-None-Match allow. */
  async patch<P>(
    ctx: Context,
    codec: t.Decoder<unknown, P>,
    change: (request: PatchRequest<I, P>) => TaskEither<DomainError, V>,
  ): Promise<void> {
    const patch = decodedInput(ctx, 'body', codec, ctx.request.body);
    if (patch === undefined) return;
    this.respond(ctx, await this.onPath(ctx, (id) => change({ id, patch, ...conditionOf(ctx, id) })()));
  }

  /** DELETE: `remove` on the path's id, as If-Match and If-None-Match allow; 204 with no body. */
  async remove(ctx: Context, remove: (request: ChangeRequest<I>) => TaskEither<DomainError, void>): Promise<void> {
    const removed = await this.onPath(ctx, (id) => remove({ id, ...conditionOf(ctx, id) })());
    if (E.isLeft(removed)) return respond(ctx, removed, 204);
    ctx.response.status = 204;
  }
}

/** The headers of a creation: Location, the new resource under the collection's path, and Idempotent-Replayed when it answers a retry. */
export function announceCreated(ctx: Context, id: number, replayed: boolean): void {
  ctx.response.set('Location', `${requestPath(ctx).replace(/\/$/, '')}/${id}`);
  if (replayed) ctx.response.set('Idempotent-Replayed', 'true');
}
