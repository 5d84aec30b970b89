// Placing an order: the pet is reserved (available → pending) and the order stored in one
// transaction, at most once per idempotency key when one is sent.
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type { TaskEither } from 'fp-ts/lib/TaskEither.js';
import { type IdempotencyKeyReused, idempotencyKeyReused, type PetUnavailable, type UnknownPet } from '../errors.js';
import { IDEMPOTENCY_POLICY, type IdempotencyKey } from '../idempotency.js';
import { asPlaced, FIRST_ORDER_VERSION, type NewOrder, type VersionedOrder } from '../order.js';
import { ORDERABLE_PET_STATUS, orderFingerprintOf } from '../order-changes.js';
import type { Clock, KeyedOrder, OrderKey, OrderRepository, PetRepository } from '../ports/index.js';

/** A placement: the order asked for, and the caller's idempotency key when one was sent. */
export interface PlaceOrderRequest {
  readonly newOrder: NewOrder;
  /** The caller the key belongs to (its identity, never its API key), and the key. */
  readonly idempotency?: { readonly scope: string; readonly key: IdempotencyKey };
}

/** The answer of {@link PlaceOrder}: the order, and whether an earlier request with the same key placed it. */
export interface PlacedOrder {
  readonly order: VersionedOrder;
  readonly replayed: boolean;
}

/** The use case that places an order. */
export type PlaceOrder = (request: PlaceOrderRequest) => TaskEither<UnknownPet | PetUnavailable | IdempotencyKeyReused, PlacedOrder>;

/** The answer to a key that holds a placement: the order as placed, or the key's reuse for another request. */
const replay = (keyed: KeyedOrder, fingerprint: string): E.Either<IdempotencyKeyReused, PlacedOrder> =>
  keyed.fingerprint === fingerprint
    ? E.right({ order: { order: asPlaced(keyed.order), version: FIRST_ORDER_VERSION }, replayed: true })
    : E.left(idempotencyKeyReused);

/**
 * Places an order for an available pet. A pet that does not exist, or is not available, is
 * refused, naming it; a retry with the same key and body gets the order first placed, a
 * different body under the key is refused.
 */
export const placeOrder =
  (orders: OrderRepository, pets: PetRepository, clock: Clock): PlaceOrder =>
  ({ newOrder, idempotency }) =>
  async () => {
    const fingerprint = orderFingerprintOf(newOrder);
    for (;;) {
      const at = clock.now();
      const key: OrderKey | undefined =
        idempotency === undefined
          ? undefined
          : { ...idempotency, fingerprint, expiresAt: new Date(at.getTime() + IDEMPOTENCY_POLICY.retentionMs) };
      const placement = await orders.place({
        petId: newOrder.petId,
        ...(newOrder.note === undefined ? {} : { note: newOrder.note }),
        at,
        ...(key === undefined ? {} : { key }),
      });
      if (placement.kind === 'placed') return E.right({ order: placement.order, replayed: false });
      if (placement.kind === 'keyed') return replay(placement.keyed, fingerprint);
      // Not available: a request with the same key may have placed it meanwhile, from another process.
      if (key !== undefined) {
        const keyed = await orders.findKeyed(key, at);
        if (O.isSome(keyed)) return replay(keyed.value, fingerprint);
      }
      const pet = await pets.findById(newOrder.petId);
      if (O.isNone(pet)) return E.left<UnknownPet>({ code: 'unknown_pet', petId: String(newOrder.petId) });
      if (pet.value.status !== ORDERABLE_PET_STATUS)
        return E.left<PetUnavailable>({ code: 'pet_unavailable', petId: String(newOrder.petId), status: pet.value.status });
      // Available again (its order was cancelled between the two reads): try again.
    }
  };
