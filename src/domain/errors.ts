// The domain's failures: a closed union of plain values, each with a stable code.
// They are results, not exceptions; the HTTP adapter turns each into a response exactly once.
import type { OrderId, OrderStatus } from './order.js';
import type { CategoryId, PetId, PetStatus } from './pet.js';

/** No pet has the id asked for. */
export interface PetNotFound {
  readonly code: 'pet_not_found';
  /** The id that was looked for, in decimal (it may be an int64 beyond what a PetId holds). */
  readonly petId: string;
}

/** The {@link PetNotFound} failure for an id. */
export const petNotFound = (petId: PetId | bigint): PetNotFound => ({ code: 'pet_not_found', petId: String(petId) });

/** A request with this idempotency key is still being processed. */
export interface IdempotencyKeyInUse {
  readonly code: 'idempotency_key_in_use';
}

/** This idempotency key was already used for a request that asked for something else. */
export interface IdempotencyKeyReused {
  readonly code: 'idempotency_key_reused';
}

/** The {@link IdempotencyKeyInUse} failure. */
export const idempotencyKeyInUse: IdempotencyKeyInUse = { code: 'idempotency_key_in_use' };
/** The {@link IdempotencyKeyReused} failure. */
export const idempotencyKeyReused: IdempotencyKeyReused = { code: 'idempotency_key_reused' };

/** A change would move a pet to a status its current status does not lead to. */
export interface InvalidTransition {
  readonly code: 'invalid_transition';
  readonly petId: string;
  readonly from: PetStatus;
  readonly to: PetStatus;
  /** The statuses the pet may be moved to from `from`: none when `from` is final. */
  readonly allowed: readonly PetStatus[];
}

/** The pet is not in the version the request was conditional on (If-Match): nothing was changed. */
export interface PreconditionFailed {
  readonly code: 'precondition_failed';
  readonly petId: string;
  /** Which condition the pet's version failed: `expected` (not one it had to be in) or `excluded` (one it must not be in). */
  readonly failed: 'expected' | 'excluded';
}

/** The {@link PreconditionFailed} failure for an id. */
export const preconditionFailed = (petId: PetId, failed: PreconditionFailed['failed'] = 'expected'): PreconditionFailed => ({
  code: 'precondition_failed',
  petId: String(petId),
  failed,
});

/** No category has the id asked for. */
export interface CategoryNotFound {
  readonly code: 'category_not_found';
  /** The id that was looked for, in decimal (it may be an int64 beyond what a CategoryId holds). */
  readonly categoryId: string;
}

/** The {@link CategoryNotFound} failure for an id. */
export const categoryNotFound = (categoryId: CategoryId | bigint): CategoryNotFound => ({
  code: 'category_not_found',
  categoryId: String(categoryId),
});

/** Another category has this name, compared case-insensitively: nothing was stored. */
export interface CategoryNameTaken {
  readonly code: 'category_name_taken';
  /** The name asked for, as it was sent. */
  readonly name: string;
}

/** A pet is in the category, so it cannot be deleted: nothing was done. */
export interface CategoryInUse {
  readonly code: 'category_in_use';
  readonly categoryId: string;
}

/** The category is not in the version the request was conditional on (If-Match): nothing was changed. */
export interface CategoryPreconditionFailed {
  readonly code: 'category_precondition_failed';
  readonly categoryId: string;
  /** As {@link PreconditionFailed.failed}. */
  readonly failed: 'expected' | 'excluded';
}

/** The {@link CategoryPreconditionFailed} failure for an id. */
export const categoryPreconditionFailed = (
  categoryId: CategoryId,
  failed: CategoryPreconditionFailed['failed'] = 'expected',
): CategoryPreconditionFailed => ({ code: 'category_precondition_failed', categoryId: String(categoryId), failed });

/** With PETSTORE_CATEGORIES=registered: a pet's categoryId names no stored category. Nothing was stored. */
export interface UnknownCategory {
  readonly code: 'unknown_category';
  readonly categoryId: string;
}

/** The {@link UnknownCategory} failure for an id. */
export const unknownCategory = (categoryId: CategoryId): UnknownCategory => ({ code: 'unknown_category', categoryId: String(categoryId) });

/** The failures of the categories' use cases. */
export type CategoryError = CategoryNotFound | CategoryNameTaken | CategoryInUse | CategoryPreconditionFailed;

/** No order has the id asked for. */
export interface OrderNotFound {
  readonly code: 'order_not_found';
  /** The id that was looked for, in decimal (it may be an int64 beyond what an OrderId holds). */
  readonly orderId: string;
}

/** The {@link OrderNotFound} failure for an id. */
export const orderNotFound = (orderId: OrderId | bigint): OrderNotFound => ({ code: 'order_not_found', orderId: String(orderId) });

/** An order names a pet that does not exist (never did, or was deleted): nothing was ordered. */
export interface UnknownPet {
  readonly code: 'unknown_pet';
  readonly petId: string;
}

/** The pet of an order is not available (pending or sold): nothing was ordered. */
export interface PetUnavailable {
  readonly code: 'pet_unavailable';
  readonly petId: string;
  /** The pet's status when the order was refused. */
  readonly status: PetStatus;
}

/** The pet has an open order: its status cannot change, nor can it be deleted, until the order ends. */
export interface PetReserved {
  readonly code: 'pet_reserved';
  readonly petId: string;
  /** The open order that holds the pet. */
  readonly orderId: string;
}

/** A change would move an order to a status its current status does not lead to. */
export interface InvalidOrderTransition {
  readonly code: 'invalid_order_transition';
  readonly orderId: string;
  readonly from: OrderStatus;
  readonly to: OrderStatus;
  /** The statuses the order may be moved to from `from`: none when `from` is final. */
  readonly allowed: readonly OrderStatus[];
}

/** The order is not in the version the request was conditional on (If-Match): nothing was changed. */
export interface OrderPreconditionFailed {
  readonly code: 'order_precondition_failed';
  readonly orderId: string;
  readonly failed: 'expected' | 'excluded';
}

/** Every failure a use case can return. Adding one is a compile error wherever it is not handled. */
export type DomainError =
  | PetNotFound
  | IdempotencyKeyInUse
  | IdempotencyKeyReused
  | InvalidTransition
  | PreconditionFailed
  | CategoryError
  | UnknownCategory
  | OrderNotFound
  | UnknownPet
  | PetUnavailable
  | PetReserved
  | InvalidOrderTransition
  | OrderPreconditionFailed;
