// The operations of the store (interface 1.3): orders and the inventory, one named handler
// each, as the pets' (pet-handlers.ts): decode at the edge, run the use case, respond.
import type { RouterContext, RouterMiddleware } from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import {
  type Caller,
  type ChangeOrder,
  DEFAULT_LIMIT,
  type DomainError,
  type GetInventory,
  type GetOrder,
  type ListOrders,
  NewOrder,
  type OrderId,
  OrderPatch,
  type PlaceOrder,
  type VersionedOrder,
} from '../../../domain/index.js';
import { apiError } from '../errors/error-catalogue.js';
import { sendError } from '../errors/send-error.js';
import { idempotencyKeyOf } from '../request/idempotency-key-header.js';
import { encodeOrderCursor } from '../request/order-cursor.js';
import { orderIdOf } from '../request/order-id-path.js';
import { ListOrdersQuery } from '../request/parameters.js';
import { conditionOf } from '../request/preconditions.js';
import { queryParameters } from '../request/query-parameters.js';
import { requestPath } from '../request/request-path.js';
import { invalidInput, respond } from '../response/respond.js';
import { respondVersioned } from '../response/respond-versioned.js';

/** The use cases of the store the HTTP adapter serves. */
export interface StoreUseCases {
  readonly placeOrder: PlaceOrder;
  readonly getOrder: GetOrder;
  readonly listOrders: ListOrders;
  readonly changeOrder: ChangeOrder;
  readonly getInventory: GetInventory;
}

/** Runs `operation` on the path's order id (read by readOrderId). */
const onPathOrder = async <A>(ctx: RouterContext, operation: (id: OrderId) => Promise<E.Either<DomainError, A>>) => {
  const id = orderIdOf(ctx);
  return E.isLeft(id) ? id : operation(id.right);
};

/** Answers an order with its ETag, or the error. */
const respondOrder = (ctx: RouterContext, result: E.Either<DomainError, VersionedOrder>, status = 200): void =>
  respondVersioned(ctx, result, (versioned) => versioned.order, status);

/** The `filter` a cursor was issued for, and the one the request sends, differ: name the first. */
const filterMismatch = (field: string, issued: string | number | undefined): string =>
  `was issued for ${issued === undefined ? `the list without ${field}` : `${field}=${String(issued)}`}: send the same ${field} with it`;

/** The handlers of /v1/orders, /v1/orders/{orderId} and /v1/store/inventory. Each is bound, to be given to a route as it is. */
export class OrderHandlers {
  constructor(private readonly useCases: StoreUseCases) {}

  /** GET /orders: one page of orders, with `Link: rel="next"` when more follow. */
  readonly listOrders: RouterMiddleware = async (ctx) => {
    const query = ListOrdersQuery.decode(queryParameters(ctx.request.querystring));
    if (E.isLeft(query)) return sendError(ctx, invalidInput('query', query.left));
    const { limit = DEFAULT_LIMIT, status, petId, cursor } = query.right;
    const mismatch =
      cursor === undefined
        ? undefined
        : cursor.status !== status
          ? filterMismatch('status', cursor.status)
          : cursor.petId !== petId
            ? filterMismatch('petId', cursor.petId)
            : undefined;
    if (mismatch !== undefined) {
      return sendError(
        ctx,
        apiError('invalid_parameter', `Invalid query parameter: cursor ${mismatch}`, {
          details: [{ in: 'query', field: 'cursor', message: mismatch }],
        }),
      );
    }
    const filters = { ...(status === undefined ? {} : { status }), ...(petId === undefined ? {} : { petId }) };
    const page = await this.useCases.listOrders({ limit, ...filters, ...(cursor === undefined ? {} : { afterId: cursor.afterId }) })();
    if (E.isRight(page) && page.right.hasMore) {
      const last = page.right.orders[page.right.orders.length - 1]!;
      const next = encodeOrderCursor({ afterId: last.id, status, petId });
      const filter = `${status === undefined ? '' : `&status=${status}`}${petId === undefined ? '' : `&petId=${petId}`}`;
      ctx.response.set('Link', `<${requestPath(ctx)}?limit=${limit}${filter}&cursor=${next}>; rel="next"`);
    }
    respond(ctx, E.map((p: { orders: unknown }) => p.orders)(page), 200);
  };

  /** POST /orders: places an order from the JSON body, once per Idempotency-Key when one is sent. */
  readonly placeOrder: RouterMiddleware = async (ctx) => {
    const key = idempotencyKeyOf(ctx);
    const newOrder = NewOrder.decode(ctx.request.body);
    if (E.isLeft(newOrder)) return sendError(ctx, invalidInput('body', newOrder.left));
    const idempotency = key === undefined ? {} : { idempotency: { scope: (ctx.state['caller'] as Caller).id, key } };
    const placed = await this.useCases.placeOrder({ newOrder: newOrder.right, ...idempotency })();
    if (E.isRight(placed)) {
      ctx.response.set('Location', `${requestPath(ctx).replace(/\/$/, '')}/${placed.right.order.order.id}`);
      if (placed.right.replayed) ctx.response.set('Idempotent-Replayed', 'true');
    }
    respondOrder(ctx, E.map((p: { order: VersionedOrder }) => p.order)(placed), 201);
  };

  /** GET /orders/{orderId}: one order, with its ETag. */
  readonly getOrder: RouterMiddleware = async (ctx) => {
    respondOrder(ctx, await onPathOrder(ctx, (id) => this.useCases.getOrder(id)()));
  };

  /** PATCH /orders/{orderId}: a move of its status (a merge patch), conditional on If-Match and If-None-Match when sent. */
  readonly changeOrder: RouterMiddleware = async (ctx) => {
    const patch = OrderPatch.decode(ctx.request.body);
    if (E.isLeft(patch)) return sendError(ctx, invalidInput('body', patch.left));
    respondOrder(ctx, await onPathOrder(ctx, (id) => this.useCases.changeOrder({ id, patch: patch.right, ...conditionOf(ctx, id) })()));
  };

  /** GET /store/inventory: how many pets each status has. */
  readonly getInventory: RouterMiddleware = async (ctx) => {
    respond(ctx, await this.useCases.getInventory()(), 200);
  };
}
