// The typed client's calls of the store (since interface 1.3): orders, which reserve a pet, and
// the inventory. PetStoreClient has them beside the pets' calls.
import { ClientCore, idempotencyKeyHeader, ifMatchHeader } from './client-core.js';
import {
  type ChangeOrderOptions,
  type Inventory,
  isInventory,
  isOrder,
  type ListOrdersParams,
  type NewOrder,
  type OrderPage,
  type OrderStatus,
  type OrderWithETag,
  type PlaceOrderOptions,
} from './order-types.js';
import type { CallOptions } from './types.js';

export abstract class StoreCalls extends ClientCore {
  /**
   * Places an order for an available pet, which becomes `pending`, at most once however often it
   * is retried (an Idempotency-Key, as {@link PetStoreClient.createPet}). Fails with
   * `pet_unavailable` (409, the pet's status in `details[0].currentStatus`) or `unknown_pet` (422).
   */
  async placeOrder(newOrder: NewOrder, options: PlaceOrderOptions = {}): Promise<OrderWithETag> {
    const headers = { 'Content-Type': 'application/json', ...idempotencyKeyHeader(options.idempotencyKey) };
    const answer = await this.call(new URL('orders', this.base), options, { method: 'POST', headers, body: JSON.stringify(newOrder) });
    return { order: this.expect(answer, isOrder, 'the answer is not an order'), etag: this.etagOf(answer) };
  }

  /** One order by its id, with its ETag; fails with `order_not_found` (404) when there is none. */
  async getOrder(id: number, options: CallOptions = {}): Promise<OrderWithETag> {
    const answer = await this.call(this.resourceUrl('orders', id), options);
    return { order: this.expect(answer, isOrder, 'the answer is not an order'), etag: this.etagOf(answer) };
  }

  /**
   * Moves an order to `status`: `delivered` makes its pet `sold`, `cancelled` `available` again.
   * Fails with `invalid_transition` (409) for a move its status does not lead to.
   */
  async changeOrder(id: number, status: OrderStatus, options: ChangeOrderOptions = {}): Promise<OrderWithETag> {
    const answer = await this.call(this.resourceUrl('orders', id), options, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json', ...ifMatchHeader(options) },
      body: JSON.stringify({ status }),
    });
    return { order: this.expect(answer, isOrder, 'the answer is not an order'), etag: this.etagOf(answer) };
  }

  /** The first page of orders, in ascending id order; follow `next` with {@link nextOrderPage}. */
  async listOrders(query: ListOrdersParams = {}, options: CallOptions = {}): Promise<OrderPage> {
    const url = new URL('orders', this.base);
    for (const name of ['limit', 'status', 'petId'] as const) {
      if (query[name] !== undefined) url.searchParams.set(name, String(query[name]));
    }
    return this.orderPage(url, options);
  }

  /** The page after `page`, or undefined after the last one. */
  async nextOrderPage(page: OrderPage, options: CallOptions = {}): Promise<OrderPage | undefined> {
    return page.next === undefined ? undefined : this.orderPage(new URL(page.next), options);
  }

  /** Every order of the list, page after page. */
  async *allOrders(query: ListOrdersParams = {}, options: CallOptions = {}): AsyncGenerator<OrderWithETag['order'], void, undefined> {
    let page: OrderPage | undefined = await this.listOrders(query, options);
    while (page !== undefined) {
      yield* page.orders;
      page = await this.nextOrderPage(page, options);
    }
  }

  /** How many pets have each status, counted at one moment. */
  async getInventory(options: CallOptions = {}): Promise<Inventory> {
    const answer = await this.call(new URL('store/inventory', this.base), options);
    return this.expect(answer, isInventory, 'the answer is not an inventory');
  }

  private async orderPage(url: URL, options: CallOptions): Promise<OrderPage> {
    const { items, next } = await this.listPage(url, options, isOrder, 'order');
    return { orders: items, next };
  }
}
