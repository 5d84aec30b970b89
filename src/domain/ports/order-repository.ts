// Where orders are kept: the repository every storage implements, beside its pets. An order
// and the pet it reserves change in one transaction, so this port lives with the PetRepository
// of the same storage.
import type { Option } from 'fp-ts/lib/Option.js';
import type { Order, OrderId, OrderNote, OrderStatus, OrderVersion, VersionedOrder } from '../order.js';
import type { PetId, PetStatus } from '../pet.js';
import type { IdempotencyRecordId } from './idempotency-store.js';

/** Which orders {@link OrderRepository.list} answers. */
export interface OrderListQuery {
  /** At most this many orders: a positive integer. */
  readonly limit: number;
  /** Only orders with this status. */
  readonly status?: OrderStatus;
  /** Only orders of this pet. */
  readonly petId?: PetId;
  /** Only orders whose id is greater than this one: keyset paging. */
  readonly afterId?: OrderId;
}

/** The idempotency key a placement was sent with: whose, which, what it asked for, and until when it is remembered. */
export interface OrderKey extends IdempotencyRecordId {
  /** What the request asked for, canonically (orderFingerprintOf); a retry must ask for the same. */
  readonly fingerprint: string;
  readonly expiresAt: Date;
}

/** A placement: the pet to reserve, the note, when, and the key it was sent with, if any. */
export interface OrderPlacementRequest {
  readonly petId: PetId;
  readonly note?: OrderNote;
  readonly at: Date;
  readonly key?: OrderKey;
}

/** An order placed earlier with an idempotency key, while that key is remembered. */
export interface KeyedOrder {
  readonly fingerprint: string;
  readonly order: Order;
}

/** What a placement did. */
export type OrderPlacement =
  /** The order is stored, placed, at its first version; its pet went from available to pending, with its event. */
  | { readonly kind: 'placed'; readonly order: VersionedOrder }
  /** The pet does not exist or is not available: nothing was stored. */
  | { readonly kind: 'not-available' }
  /** The key holds a live placement (of this request or another): nothing was stored. */
  | { readonly kind: 'keyed'; readonly keyed: KeyedOrder };

/** A move of an order's status, and what it does to the pet, in the same transaction. */
export interface OrderMove {
  readonly status: OrderStatus;
  readonly at: Date;
  /** The pet's status after the move (a new version with its event), or undefined when the pet stays as it is. */
  readonly petStatus?: PetStatus | undefined;
}

/**
 * Where orders are kept. The memory adapter defines the behaviour; every adapter passes the
 * same contract suite. Orders are never deleted and their ids never reused. Every change
 * records its event (and its pet's) in the change's transaction, when the storage records events.
 */
export interface OrderRepository {
  /**
   * In one transaction: when `key` holds a live placement, answers it; otherwise, only if the
   * pet is available, moves it to pending (a new version), stores the order placed at its
   * first version, and remembers the key with it. Of any number of concurrent placements for
   * one pet, from any process, at most one is placed.
   */
  place(request: OrderPlacementRequest): Promise<OrderPlacement>;
  /** The live placement `id` made at `now`, if any. */
  findKeyed(id: IdempotencyRecordId, now: Date): Promise<Option<KeyedOrder>>;
  findVersioned(id: OrderId): Promise<Option<VersionedOrder>>;
  /** At most `limit` orders, in ascending id order, after `afterId` when given. */
  list(query: OrderListQuery): Promise<readonly Order[]>;
  /**
   * Compare-and-set: moves the order to `move.status` at `move.at` and adds one to its version,
   * only if its version is still `version`; in the same transaction, gives its pet
   * `move.petStatus` when there is one. Answers the order as stored, or none, changing
   * nothing, when no order has the id or its version is another.
   */
  change(id: OrderId, version: OrderVersion, move: OrderMove): Promise<Option<VersionedOrder>>;
  /** The open order (placed or approved) of the pet, if it has one. */
  openOrderOf(petId: PetId): Promise<Option<OrderId>>;
}
