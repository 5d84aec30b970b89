import type { TaskEither } from 'fp-ts/lib/TaskEither.js';
import { type OrderNotFound, orderNotFound } from '../errors.js';
import type { OrderId, VersionedOrder } from '../order.js';
import type { OrderRepository } from '../ports/index.js';
import { fetchById } from './fetch-by-id.js';

/** The use case that fetches one order with its version (for an ETag), or answers {@link OrderNotFound}. */
export type GetOrder = (id: OrderId) => TaskEither<OrderNotFound, VersionedOrder>;

/** Fetches one order and its version by its id, or says that no order has it. */
export const getOrder = (orders: OrderRepository): GetOrder => fetchById((id: OrderId) => orders.findVersioned(id), orderNotFound);
