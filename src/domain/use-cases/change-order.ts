import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type { TaskEither } from 'fp-ts/lib/TaskEither.js';
import { type InvalidOrderTransition, type OrderNotFound, orderNotFound, type OrderPreconditionFailed } from '../errors.js';
import type { OrderId, VersionedOrder } from '../order.js';
import { canChangeOrderStatus, type OrderPatch, orderStatusesAllowedFrom, petStatusAfter } from '../order-changes.js';
import type { PatchRequest } from '../pet-changes.js';
import type { Clock, OrderRepository } from '../ports/index.js';
import { changeVersioned } from './change-at-version.js';

/** A change of an order's status, and the versions the client expects it in. */
export type ChangeOrderRequest = PatchRequest<OrderId, OrderPatch>;

/** The use case that moves an order through its statuses. */
export type ChangeOrder = (
  request: ChangeOrderRequest,
) => TaskEither<OrderNotFound | OrderPreconditionFailed | InvalidOrderTransition, VersionedOrder>;

/**
 * Moves an order to the status asked for, when its current one leads there; its pet is sold
 * (delivered) or made available again (cancelled) in the same transaction. The same status
 * is no change: nothing is stored and the version stays.
 */
export const changeOrder =
  (orders: OrderRepository, clock: Clock): ChangeOrder =>
  ({ id, patch, expected, excluded }) =>
  () =>
    changeVersioned(
      {
        find: () => orders.findVersioned(id),
        notFound: () => orderNotFound(id),
        preconditionFailed: (failed): OrderPreconditionFailed => ({ code: 'order_precondition_failed', orderId: String(id), failed }),
      },
      { expected, excluded },
      async (current: VersionedOrder) => {
        const from = current.order.status;
        const to = patch.status;
        if (!canChangeOrderStatus(from, to)) {
          return E.left<InvalidOrderTransition>({
            code: 'invalid_order_transition',
            orderId: String(id),
            from,
            to,
            allowed: orderStatusesAllowedFrom(from),
          });
        }
        if (from === to) return E.right(O.some(current));
        return E.right(await orders.change(id, current.version, { status: to, at: clock.now(), petStatus: petStatusAfter(to) }));
      },
    );
