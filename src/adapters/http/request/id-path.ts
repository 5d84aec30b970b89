// An id in the path (/pets/{petId}, /orders/{orderId}, /categories/{categoryId}), read once
// before the operation (and before its body): a malformed id is answered 400 invalid_parameter
// naming it, as for every operation of the path.
import * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import type { Context, Middleware } from 'koa';
import { sendError } from '../errors/send-error.js';
import { invalidInput } from '../response/respond.js';

/** The middleware that reads the id, and the function that answers it to the handler. */
export interface IdPath<I, N> {
  readonly read: Middleware;
  /** The id read; a well-formed int64 beyond 2^53−1 is an id the service never assigns: `notFound` at once, without asking the storage. */
  readonly idOf: (ctx: Context) => E.Either<N, I>;
}

/** The reading of the path parameter `name`, decoded by `params` (a positive int64 as a bigint). */
export function idPath<I, N, K extends string>(
  params: t.Decoder<unknown, Record<K, bigint>>,
  name: K,
  notFound: (id: bigint) => N,
): IdPath<I, N> {
  return {
    read: async (ctx, next) => {
      const decoded = params.decode((ctx as Context & { params: unknown }).params);
      if (E.isLeft(decoded)) return sendError(ctx, invalidInput('path', decoded.left));
      ctx.state[name] = decoded.right[name];
      await next();
    },
    idOf: (ctx) => {
      const id = ctx.state[name] as bigint;
      return Number.isSafeInteger(Number(id)) ? E.right(Number(id) as I) : E.left(notFound(id));
    },
  };
}
