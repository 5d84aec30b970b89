// The change events of the store: a pet created, updated or deleted. A change that committed
// has exactly one event, recorded in the change's own transaction (the outbox), and relayed
// from there at least once; a change that did not happen (an idempotent replay, a patch that
// changes nothing, a failed precondition) never reaches a write, and so has none.
import type { Pet, PetId } from './pet.js';

/** Every event type, as CloudEvents `type` and NATS subject. */
export const PET_EVENT_TYPES = ['petstore.pet.created', 'petstore.pet.updated', 'petstore.pet.deleted'] as const;

/** The type of a change event. */
export type PetEventType = (typeof PET_EVENT_TYPES)[number];

/** What an event says of its pet: the pet as the interface returns it after the change; only its id once deleted. */
export type PetEventData = Pet | { readonly id: PetId };

/** A change, as the repository records it in the change's transaction. */
export interface PetChange {
  readonly type: PetEventType;
  readonly petId: PetId;
  readonly data: PetEventData;
}

/** A pet was created: the event of every create that committed, replays excluded. */
export const petCreated = (pet: Pet): PetChange => ({ type: 'petstore.pet.created', petId: pet.id, data: pet });

/** A pet changed (name, category or status): the event of every update that wrote. */
export const petUpdated = (pet: Pet): PetChange => ({ type: 'petstore.pet.updated', petId: pet.id, data: pet });

/** A pet was deleted: the event of every delete that removed it. */
export const petDeleted = (id: PetId): PetChange => ({ type: 'petstore.pet.deleted', petId: id, data: { id } });

/** A change as the outbox keeps it and the relay delivers it. */
export interface PetEvent extends PetChange {
  /** Unique, and the same on every redelivery: consumers and brokers drop duplicates by it. */
  readonly id: string;
  /** The outbox's order: one pet's events follow the order in which its changes committed. */
  readonly sequence: number;
  /** When the change was written, in its transaction. */
  readonly time: Date;
}

/** Whether an event of `type` is one that `wanted` asks for (none asks for every type). */
export const wantsEvent = (wanted: readonly PetEventType[], type: PetEventType): boolean => wanted.length === 0 || wanted.includes(type);
