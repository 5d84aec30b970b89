import * as E from 'fp-ts/lib/Either.js';
import type { TaskEither } from 'fp-ts/lib/TaskEither.js';
import type { Order, OrderId, OrderStatus } from '../order.js';
import type { Limit } from '../page.js';
import type { PetId } from '../pet.js';
import type { OrderRepository } from '../ports/index.js';

/** Which page of orders to list: its size, optional filters, and where to resume. */
export interface ListOrdersRequest {
  readonly limit: Limit;
  readonly status?: OrderStatus;
  readonly petId?: PetId;
  /** Resume strictly after this order (the last one of the previous page). */
  readonly afterId?: OrderId;
}

/** One page of orders, and whether more follow it. */
export interface OrderPage {
  readonly orders: readonly Order[];
  readonly hasMore: boolean;
}

/** The use case that lists one page of orders: it cannot fail in the domain. */
export type ListOrders = (request: ListOrdersRequest) => TaskEither<never, OrderPage>;

/** Lists orders in ascending id order, at most `limit`, optionally of one status and one pet, after a given order. */
export const listOrders =
  (orders: OrderRepository): ListOrders =>
  (request) =>
  async () => {
    // One order more than asked tells whether another page follows, without counting.
    const found = await orders.list({ ...request, limit: request.limit + 1 });
    return E.right(
      found.length > request.limit ? { orders: found.slice(0, request.limit), hasMore: true } : { orders: found, hasMore: false },
    );
  };
