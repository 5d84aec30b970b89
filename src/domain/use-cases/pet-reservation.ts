// The rule that an open order holds its pet: while a pet has one, its status does not change
// and it is not deleted, except through the order. Checked on the version a change read: the
// order's placement and end each give the pet a new version, so a change that raced one fails
// its compare-and-set and is checked again.
import * as O from 'fp-ts/lib/Option.js';
import type { PetReserved } from '../errors.js';
import type { PetId } from '../pet.js';
import type { OrderRepository } from '../ports/index.js';

/** What the pets' changes ask of the orders: the open order of a pet. */
export type OpenOrders = Pick<OrderRepository, 'openOrderOf'>;

/** The {@link PetReserved} failure when `petId` has an open order in `orders`; undefined when it has none (or there are no orders). */
export async function reservationOf(orders: OpenOrders | undefined, petId: PetId): Promise<PetReserved | undefined> {
  if (orders === undefined) return undefined;
  const open = await orders.openOrderOf(petId);
  return O.isSome(open) ? { code: 'pet_reserved', petId: String(petId), orderId: String(open.value) } : undefined;
}
