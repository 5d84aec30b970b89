// The operations of the store (interface 1.3): orders and the inventory, one named handler
// each, as the pets' (pet-handlers.ts): decode at the edge, run the use case, respond.
import type { RouterMiddleware } from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import {
  type Caller,
  type ChangeOrder,
  DEFAULT_LIMIT,
  type GetInventory,
  type GetOrder,
  type ListOrders,
  type ListOrdersRequest,
  NewOrder,
  type OrderPage,
  OrderPatch,
  type PlaceOrder,
  type VersionedOrder,
} from '../../../domain/index.js';
import { idempotencyKeyOf } from '../request/idempotency-key-header.js';
import { encodeOrderCursor } from '../request/order-cursor.js';
import { orderIdOf } from '../request/order-id-path.js';
import { ListOrdersQuery } from '../request/parameters.js';
import { decodedInput, respond } from '../response/respond.js';
import { KeysetList } from './keyset-list.js';
import { announceCreated, VersionedResource } from './versioned-resource.js';

/** The use cases of the store the HTTP adapter serves. */
export interface StoreUseCases {
  readonly placeOrder: PlaceOrder;
  readonly getOrder: GetOrder;
  readonly listOrders: ListOrders;
  readonly changeOrder: ChangeOrder;
  readonly getInventory: GetInventory;
}

/** Orders, as their handlers answer them: a GET of one takes no condition. */
const orders = new VersionedResource({ idOf: orderIdOf, resourceOf: (versioned: VersionedOrder) => versioned.order });

/** The order list: by status and by pet, its cursor keeping both. */
const orderList = new KeysetList({
  query: ListOrdersQuery,
  requestOf: ({ limit = DEFAULT_LIMIT, status, petId, cursor }): ListOrdersRequest => {
    const filters = { ...(status === undefined ? {} : { status }), ...(petId === undefined ? {} : { petId }) };
    return { limit, ...filters, ...(cursor === undefined ? {} : { afterId: cursor.afterId }) };
  },
  itemsOf: (page: OrderPage) => page.orders,
  cursorAfter: ({ status, petId }, last) => encodeOrderCursor({ afterId: last.id, status, petId }),
});

/** The handlers of /v1/orders, /v1/orders/{orderId} and /v1/store/inventory. Each is bound, to be given to a route as it is. */
export class OrderHandlers {
  constructor(private readonly useCases: StoreUseCases) {}

  /** GET /orders: one page of orders, with `Link: rel="next"` when more follow. */
  readonly listOrders: RouterMiddleware = (ctx) => orderList.answer(ctx, (request) => this.useCases.listOrders(request)());

  /** POST /orders: places an order from the JSON body, once per Idempotency-Key when one is sent. */
  readonly placeOrder: RouterMiddleware = async (ctx) => {
    const key = idempotencyKeyOf(ctx);
    const newOrder = decodedInput(ctx, 'body', NewOrder, ctx.request.body);
    if (newOrder === undefined) return;
    const idempotency = key === undefined ? {} : { idempotency: { scope: (ctx.state['caller'] as Caller).id, key } };
    const placed = await this.useCases.placeOrder({ newOrder, ...idempotency })();
    if (E.isRight(placed)) announceCreated(ctx, placed.right.order.order.id, placed.right.replayed);
    orders.respond(ctx, E.map((p: { order: VersionedOrder }) => p.order)(placed), 201);
  };

  /** GET /orders/{orderId}: one order, with its ETag. */
  readonly getOrder: RouterMiddleware = (ctx) => orders.get(ctx, (id) => this.useCases.getOrder(id)());

  /** PATCH /orders/{orderId}: a move of its status (a merge patch), conditional on If-Match and If-None-Match when sent. */
  readonly changeOrder: RouterMiddleware = (ctx) => orders.patch(ctx, OrderPatch, (request) => this.useCases.changeOrder(request));

  /** GET /store/inventory: how many pets each status has. */
  readonly getInventory: RouterMiddleware = async (ctx) => {
    respond(ctx, await this.useCases.getInventory()(), 200);
  };
}
