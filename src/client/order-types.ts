// The store's resources as they travel over HTTP (since interface 1.3, docs/openapi.yaml):
// orders, which reserve a pet, and the inventory.
import { type CallOptions, isJsonObject } from './types.js';

/** Where an order is: `placed` → `approved` → `delivered`; `placed` or `approved` → `cancelled`. */
export type OrderStatus = 'placed' | 'approved' | 'delivered' | 'cancelled';

/** What to send to place an order: an available pet, and an optional note. */
export interface NewOrder {
  readonly petId: number;
  readonly note?: string;
}

/** An order as the service returns it; `note` only when one was given. */
export interface Order {
  readonly id: number;
  readonly petId: number;
  readonly status: OrderStatus;
  /** When it was placed: an RFC 3339 UTC time to the millisecond. */
  readonly placedAt: string;
  /** When its status last changed; `placedAt` until then. */
  readonly updatedAt: string;
  readonly note?: string;
}

/** An order and its ETag, for `ifMatch` on {@link PetStoreClient.changeOrder}. */
export interface OrderWithETag {
  readonly order: Order;
  readonly etag: string;
}

/** One page of the order list. */
export interface OrderPage {
  readonly orders: readonly Order[];
  /** The URL of the next page, from `Link: <…>; rel="next"`; undefined on the last page. */
  readonly next: string | undefined;
}

/** Which orders to list. */
export interface ListOrdersParams {
  /** Orders per page, 1 to 100 (the service's default: 20). */
  readonly limit?: number;
  /** Only orders with this status. */
  readonly status?: OrderStatus;
  /** Only the orders of this pet. */
  readonly petId?: number;
}

/** How many pets have each status, counted at one moment. */
export interface Inventory {
  readonly available: number;
  readonly pending: number;
  readonly sold: number;
}

/** Options of {@link PetStoreClient.placeOrder}. */
export interface PlaceOrderOptions extends CallOptions {
  /** The Idempotency-Key of the placement, as for a creation (a random UUID when absent). */
  readonly idempotencyKey?: string;
}

/** Options of {@link PetStoreClient.changeOrder}. */
export interface ChangeOrderOptions extends CallOptions {
  /** An ETag from an earlier answer (or `*`): the move is made only if the order is still in that version, else `precondition_failed` (412). */
  readonly ifMatch?: string;
}

const ORDER_STATUSES: readonly string[] = ['placed', 'approved', 'delivered', 'cancelled'];
const isCount = (value: unknown): boolean => Number.isSafeInteger(value) && (value as number) >= 0;

/** Whether a decoded JSON value has the shape of an Order. */
export const isOrder = (value: unknown): value is Order =>
  isJsonObject(value) &&
  Number.isSafeInteger(value['id']) &&
  Number.isSafeInteger(value['petId']) &&
  ORDER_STATUSES.includes(value['status'] as string) &&
  typeof value['placedAt'] === 'string' &&
  typeof value['updatedAt'] === 'string' &&
  (value['note'] === undefined || typeof value['note'] === 'string');

/** Whether a decoded JSON value has the shape of an Inventory. */
export const isInventory = (value: unknown): value is Inventory =>
  isJsonObject(value) && ['available', 'pending', 'sold'].every((status) => isCount(value[status]));
