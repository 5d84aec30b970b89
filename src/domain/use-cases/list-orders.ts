import type { TaskEither } from 'fp-ts/lib/TaskEither.js';
import type { Order, OrderId, OrderStatus } from '../order.js';
import type { PetId } from '../pet.js';
import type { OrderRepository } from '../ports/index.js';
import { type ListedPage, listPages, type PageRequest } from './list-page.js';

/** Which page of orders to list: its size, optional filters, and where to resume. */
export interface ListOrdersRequest extends PageRequest<OrderId> {
  readonly status?: OrderStatus;
  readonly petId?: PetId;
}

/** One page of orders, and whether more follow it. */
export type OrderPage = ListedPage<'orders', Order>;

/** The use case that lists one page of orders: it cannot fail in the domain. */
export type ListOrders = (request: ListOrdersRequest) => TaskEither<never, OrderPage>;

/** Lists orders in ascending id order, at most `limit`, optionally of one status and one pet, after a given order. */
export const listOrders = (orders: OrderRepository): ListOrders => listPages('orders', (query: ListOrdersRequest) => orders.list(query));
