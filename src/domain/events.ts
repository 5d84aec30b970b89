// The change events of the store: a pet or a category created, updated or deleted, an order
// placed or changed. Every event has a key that keeps its events in commit order on the ordered
// transports: a pet's (its orders' included), or a category's. A change that committed
// has exactly one event, recorded in the change's own transaction (the outbox), and relayed
// from there at least once; a change that did not happen (an idempotent replay, a patch that
// changes nothing, a failed precondition) never reaches a write, and so has none.
import type { Category } from './category.js';
import { type Order, type OrderData, orderData } from './order.js';
import type { CategoryId, Pet, PetId } from './pet.js';

/** The event types of pets, as CloudEvents `type` and NATS subject. */
export const PET_EVENT_TYPES = ['petstore.pet.created', 'petstore.pet.updated', 'petstore.pet.deleted'] as const;
/** The event types of categories (interface 1.3). */
export const CATEGORY_EVENT_TYPES = ['petstore.category.created', 'petstore.category.updated', 'petstore.category.deleted'] as const;
/** The event types of orders (interface 1.3). */
export const ORDER_EVENT_TYPES = ['petstore.order.created', 'petstore.order.updated'] as const;
/** Every event type, in the order listings give them. */
export const EVENT_TYPES = [...PET_EVENT_TYPES, ...CATEGORY_EVENT_TYPES, ...ORDER_EVENT_TYPES] as const;

/** The type of a change event of a pet. */
export type PetEventType = (typeof PET_EVENT_TYPES)[number];
/** The type of any change event. */
export type EventType = (typeof EVENT_TYPES)[number];

/** The type of a category's change event. */
export type CategoryEventType = (typeof CATEGORY_EVENT_TYPES)[number];

/** What an event of a pet says of it: the pet as the interface returns it after the change; only its id once deleted. */
export type PetEventData = Pet | { readonly id: PetId };
/** What an event of a category says of it: the category after the change; only its id once deleted. */
export type CategoryEventData = Category | { readonly id: CategoryId };
/** What an event says: of a pet, of a category, or of an order (the order as the interface returns it after the change). */
export type EventData = PetEventData | CategoryEventData | OrderData;

/** A change, as the repository records it in the change's transaction. */
export interface PetChange {
  readonly type: EventType;
  /**
   * The event's key: the pet changed, or the order's pet; for a `petstore.category.*` event the
   * category's id (the event's CloudEvents `subject`). The name is interface 1.2's, when only pets changed.
   */
  readonly petId: PetId;
  readonly data: EventData;
}

/** A pet was created: the event of every create that committed, replays excluded. */
export const petCreated = (pet: Pet): PetChange => ({ type: 'petstore.pet.created', petId: pet.id, data: pet });

/** A pet changed (name, category or status): the event of every update that wrote. */
export const petUpdated = (pet: Pet): PetChange => ({ type: 'petstore.pet.updated', petId: pet.id, data: pet });

/** A pet was deleted: the event of every delete that removed it. */
export const petDeleted = (id: PetId): PetChange => ({ type: 'petstore.pet.deleted', petId: id, data: { id } });

/** An order was placed: the event of every placement that committed, replays excluded. */
export const orderCreated = (order: Order): PetChange => ({ type: 'petstore.order.created', petId: order.petId, data: orderData(order) });

/** An order's status changed. */
export const orderUpdated = (order: Order): PetChange => ({ type: 'petstore.order.updated', petId: order.petId, data: orderData(order) });

/** Whether `type` is the type of an order's event. */
export const isOrderEventType = (type: EventType): type is (typeof ORDER_EVENT_TYPES)[number] =>
  (ORDER_EVENT_TYPES as readonly string[]).includes(type);

/** The CloudEvents `subject` of an event: the id of the pet, or of the order, it is about. */
export const eventSubject = (event: PetChange): string => String(isOrderEventType(event.type) ? event.data.id : event.petId);

/** A category was created. */
export const categoryCreated = (category: Category): PetChange => categoryChange('petstore.category.created', category.id, category);

/** A category was renamed. */
export const categoryUpdated = (category: Category): PetChange => categoryChange('petstore.category.updated', category.id, category);

/** A category was deleted. */
export const categoryDeleted = (id: CategoryId): PetChange => categoryChange('petstore.category.deleted', id, { id });

const categoryChange = (type: CategoryEventType, id: CategoryId, data: CategoryEventData): PetChange => ({
  type,
  petId: id as number as PetId,
  data,
});

/**
 * The W3C Trace Context of the work that made a change (a request's span, when tracing is on),
 * as its `traceparent` and `tracestate` header values: stored with the event, and carried with
 * it to its consumers (the CloudEvents Distributed Tracing extension), so that their work
 * joins the same trace. A plain value: the domain knows no tracing library.
 */
export interface TraceContext {
  readonly traceparent: string;
  readonly tracestate?: string;
}

/** A change as the outbox keeps it and the relay delivers it. */
export interface PetEvent extends PetChange {
  /** Unique, and the same on every redelivery: consumers and brokers drop duplicates by it. */
  readonly id: string;
  /** The outbox's order: one pet's events follow the order in which its changes committed. */
  readonly sequence: number;
  /** When the change was written, in its transaction. */
  readonly time: Date;
  /** The trace of the work that made the change; absent when none was traced. */
  readonly traceContext?: TraceContext;
}

/** Whether an event of `type` is one that `wanted` asks for (none asks for every type). */
export const wantsEvent = (wanted: readonly EventType[], type: EventType): boolean => wanted.length === 0 || wanted.includes(type);
