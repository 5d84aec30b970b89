// What an order is: the codecs of the interface's order values and the types they give. An
// order reserves one pet: placing it moves the pet from available to pending, and its end
// (delivered or cancelled) sells the pet or makes it available again (order-changes.ts).
import * as t from 'io-ts';
import { exactObject, positiveId, withMessage } from './codec.js';
import { PetId } from './pet.js';
import { storedText } from './text.js';

/** Where an order stands. `placed` and `approved` are open: the pet is reserved; `delivered` and `cancelled` are final. */
export const OrderStatus = withMessage(
  t.keyof({ placed: null, approved: null, delivered: null, cancelled: null }, 'OrderStatus'),
  'must be one of placed, approved, delivered, cancelled',
);
export type OrderStatus = t.TypeOf<typeof OrderStatus>;
/** Every order status, in the order an order goes through them. */
export const ORDER_STATUSES: readonly OrderStatus[] = ['placed', 'approved', 'delivered', 'cancelled'];
/** The statuses of an order that holds its pet: while it is in one, the pet's status and the pet itself stay. */
export const OPEN_ORDER_STATUSES: readonly OrderStatus[] = ['placed', 'approved'];

/** Brand of {@link OrderId}. */
export interface OrderIdBrand {
  readonly OrderId: unique symbol;
}
/** The identifier the service assigns to an order: a positive integer that JSON carries exactly, never reused. */
export const OrderId = positiveId<OrderIdBrand>('OrderId');
export type OrderId = t.TypeOf<typeof OrderId>;

/** The most Unicode code points an order's note may have. */
export const MAX_ORDER_NOTE_LENGTH = 500;

/** Brand of {@link OrderNote}. */
export interface OrderNoteBrand {
  readonly OrderNote: unique symbol;
}
/** The buyer's note on an order: at most 500 code points, no control characters, well-formed Unicode; may be empty. */
export const OrderNote = storedText<OrderNoteBrand>('OrderNote', MAX_ORDER_NOTE_LENGTH, false);
export type OrderNote = t.TypeOf<typeof OrderNote>;

/** The body of POST /orders: the pet to reserve, and an optional note. Unknown fields are refused. */
export const NewOrder = exactObject('NewOrder', { petId: PetId }, { note: OrderNote });
export type NewOrder = t.TypeOf<typeof NewOrder>;

/** An order as stored and returned. */
export interface Order {
  readonly id: OrderId;
  readonly petId: PetId;
  readonly status: OrderStatus;
  /** When it was placed; never changes. */
  readonly placedAt: Date;
  /** When its status last changed; `placedAt` until then. */
  readonly updatedAt: Date;
  readonly note?: OrderNote;
}

/** The version of a stored order: 1 when it is placed, one more at each change of its status. */
export type OrderVersion = number;

/** The version every new order starts at. */
export const FIRST_ORDER_VERSION: OrderVersion = 1;

/** An order as stored, with its version: what a conditional request compares. */
export interface VersionedOrder {
  readonly order: Order;
  readonly version: OrderVersion;
}

/** The order a keyed placement first answered: as it was placed, whatever became of it since. */
export const asPlaced = (order: Order): Order => ({ ...order, status: 'placed', updatedAt: order.placedAt });

/** The order as the interface writes it (and an event carries it): times in ISO 8601, UTC, to the millisecond. */
export interface OrderData {
  readonly id: OrderId;
  readonly petId: PetId;
  readonly status: OrderStatus;
  readonly placedAt: string;
  readonly updatedAt: string;
  readonly note?: OrderNote;
}

/** `order` as the interface writes it, fields in the interface's order. */
export const orderData = (order: Order): OrderData => ({
  id: order.id,
  petId: order.petId,
  status: order.status,
  placedAt: order.placedAt.toISOString(),
  updatedAt: order.updatedAt.toISOString(),
  ...(order.note === undefined ? {} : { note: order.note }),
});
