// How an order may change, and what each change does to its pet: placed → approved →
// delivered, placed or approved → cancelled; delivered and cancelled are final. A delivered
// order sells its pet, a cancelled one makes it available again, in the order's transaction.
import * as t from 'io-ts';
import { exactObject } from './codec.js';
import { type NewOrder, type OrderStatus, OrderStatus as OrderStatusCodec, OPEN_ORDER_STATUSES } from './order.js';
import type { PetStatus } from './pet.js';

const NEXT_ORDER_STATUSES: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  placed: ['approved', 'cancelled'],
  approved: ['delivered', 'cancelled'],
  delivered: [],
  cancelled: [],
};

/** The statuses an order in `from` may be moved to (not counting `from` itself). */
export const orderStatusesAllowedFrom = (from: OrderStatus): readonly OrderStatus[] => NEXT_ORDER_STATUSES[from];

/** Whether an order in `from` may be given `to`: one of the allowed moves, or the same status (no change). */
export const canChangeOrderStatus = (from: OrderStatus, to: OrderStatus): boolean => from === to || NEXT_ORDER_STATUSES[from].includes(to);

/** Whether an order in `status` holds its pet. */
export const isOpenOrder = (status: OrderStatus): boolean => OPEN_ORDER_STATUSES.includes(status);

/** The status a pet must have to be ordered. */
export const ORDERABLE_PET_STATUS: PetStatus = 'available';
/** The status an order gives its pet while it is open. */
export const RESERVED_PET_STATUS: PetStatus = 'pending';

/** The status an order's move to `to` gives its pet, or undefined when the pet stays as it is. */
export const petStatusAfter = (to: OrderStatus): PetStatus | undefined =>
  to === 'delivered' ? 'sold' : to === 'cancelled' ? ORDERABLE_PET_STATUS : undefined;

/** The body of PATCH /orders/{orderId}: the status to move to (a merge patch of the one field a client may change). */
export const OrderPatch = exactObject('OrderPatch', { status: OrderStatusCodec }, {});
export type OrderPatch = t.TypeOf<typeof OrderPatch>;

/**
 * The fingerprint of a placement sent with an idempotency key: what a retry must ask for again
 * to be answered with the order the first request placed (the pet and the note).
 */
export const orderFingerprintOf = (newOrder: NewOrder): string => JSON.stringify(['order', newOrder.petId, newOrder.note ?? null]);
