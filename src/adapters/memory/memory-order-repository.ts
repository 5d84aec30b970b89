// The reference behaviour of OrderRepository: what every other adapter must match (the
// contract suite in test/contract runs against all of them). An order and its pet change in
// one synchronous step, so no other request runs between the pet's check and the order.
import * as O from 'fp-ts/lib/Option.js';
import {
  type ArchivedOrder,
  FIRST_ORDER_VERSION,
  type IdempotencyRecordId,
  isOpenOrder,
  type KeyedOrder,
  type Order,
  type OrderId,
  type OrderListQuery,
  type OrderMove,
  type OrderPlacement,
  type OrderPlacementRequest,
  type OrderRepository,
  type OrderVersion,
  ORDERABLE_PET_STATUS,
  orderCreated,
  orderUpdated,
  type PetId,
  RESERVED_PET_STATUS,
  type VersionedOrder,
} from '../../domain/index.js';
import type { MemoryEventOutbox } from './memory-event-outbox.js';
import type { MemoryPetRepository } from './memory-pet-repository.js';

interface KeptKey {
  readonly fingerprint: string;
  readonly orderId: OrderId;
  readonly expiresAt: number;
}

// Scope and key joined by a character neither can hold, so that no two pairs share an entry.
const entryOf = ({ scope, key }: IdempotencyRecordId): string => `${scope}\u0000${key}`;

/** Orders in memory, beside the pets of the MemoryPetRepository they reserve. Nothing is kept after exit. */
export class MemoryOrderRepository implements OrderRepository {
  // In ascending id order: ids only grow, and orders are never deleted, so an id is its index + 1
  // (a hole where a restored store had none: the next id is still above every stored one).
  private readonly orders: VersionedOrder[] = [];
  private readonly keys = new Map<string, KeptKey>();
  // The open order of each pet that has one.
  private readonly openOf = new Map<number, OrderId>();

  /**
   * @param pets the pets the orders reserve, changed in the orders' own steps.
   * @param outbox where every change records its event; without one, changes record none.
   */
  constructor(
    private readonly pets: MemoryPetRepository,
    private readonly outbox?: MemoryEventOutbox,
  ) {}

  async place({ petId, note, at, key }: OrderPlacementRequest): Promise<OrderPlacement> {
    if (key !== undefined) {
      const keyed = this.keyed(key, at);
      if (keyed !== undefined) return { kind: 'keyed', keyed };
    }
    if (this.pets.moveStatus(petId, RESERVED_PET_STATUS, ORDERABLE_PET_STATUS) === undefined) return { kind: 'not-available' };
    const order: Order = Object.freeze({
      id: (this.orders.length + 1) as OrderId,
      petId,
      status: 'placed',
      placedAt: at,
      updatedAt: at,
      ...(note === undefined ? {} : { note }),
    });
    const versioned = { order, version: FIRST_ORDER_VERSION };
    this.orders.push(versioned);
    this.openOf.set(petId, order.id);
    if (key !== undefined)
      this.keys.set(entryOf(key), { fingerprint: key.fingerprint, orderId: order.id, expiresAt: key.expiresAt.getTime() });
    this.outbox?.record(orderCreated(order));
    return { kind: 'placed', order: versioned };
  }

  async findKeyed(id: IdempotencyRecordId, now: Date): Promise<O.Option<KeyedOrder>> {
    return O.fromNullable(this.keyed(id, now));
  }

  private keyed(id: IdempotencyRecordId, now: Date): KeyedOrder | undefined {
    const kept = this.keys.get(entryOf(id));
    if (kept === undefined || kept.expiresAt <= now.getTime()) return undefined;
    return { fingerprint: kept.fingerprint, order: this.orders[kept.orderId - 1]!.order };
  }

  async findVersioned(id: OrderId): Promise<O.Option<VersionedOrder>> {
    return O.fromNullable(this.orders[id - 1]);
  }

  async list({ limit, status, petId, afterId = 0 as OrderId }: OrderListQuery): Promise<readonly Order[]> {
    const found: Order[] = [];
    for (let i: number = afterId; i < this.orders.length && found.length < limit; i += 1) {
      const entry = this.orders[i];
      if (entry === undefined) continue;
      const { order } = entry;
      if ((status === undefined || order.status === status) && (petId === undefined || order.petId === petId)) found.push(order);
    }
    return found;
  }

  // Compare, write the order and move its pet in one synchronous step.
  async change(id: OrderId, version: OrderVersion, { status, at, petStatus }: OrderMove): Promise<O.Option<VersionedOrder>> {
    const current = this.orders[id - 1];
    if (current === undefined || current.version !== version) return O.none;
    const order: Order = Object.freeze({ ...current.order, status, updatedAt: at });
    const changed = { order, version: version + 1 };
    this.orders[id - 1] = changed;
    if (isOpenOrder(status)) this.openOf.set(order.petId, id);
    else if (this.openOf.get(order.petId) === id) this.openOf.delete(order.petId);
    // The pet's event first: an order's end is seen after what it did to its pet, as its placement is.
    if (petStatus !== undefined) this.pets.moveStatus(order.petId, petStatus);
    this.outbox?.record(orderUpdated(order));
    return O.some(changed);
  }

  async openOrderOf(petId: PetId): Promise<O.Option<OrderId>> {
    return O.fromNullable(this.openOf.get(petId));
  }

  /** Every stored order with its version, in id order (MemoryStoreArchive's export). */
  archived(): ArchivedOrder[] {
    return this.orders.flatMap(({ order: { note, ...order }, version }) => [{ ...order, note: note ?? null, version }]);
  }

  /** Stores `order` as it was archived, under its own id; moves no pet (MemoryStoreArchive's import). */
  restore({ note, version, ...order }: ArchivedOrder): void {
    this.orders[order.id - 1] = { order: Object.freeze({ ...order, ...(note === null ? {} : { note }) }), version };
    if (isOpenOrder(order.status)) this.openOf.set(order.petId, order.id);
  }
}
