// One write of a batch of creates, as the SQLite and PostgreSQL repositories queue them for
// group commit (write-batches.ts): the pet, and the idempotency record it completes, if any.
import type { CategoryRule, IdempotencyHold, Pet, PetDraft, TraceContext } from '../../domain/index.js';

/** A pet to store, and the idempotency record to complete with it, if any. */
export interface PetWrite {
  readonly draft: PetDraft;
  readonly hold?: IdempotencyHold;
  /** `registered`: stored only if its category exists (an UnknownCategoryError otherwise). */
  readonly rule?: CategoryRule;
  /** The trace context of its caller, taken when it was asked for, which its event keeps (PostgreSQL's batch). */
  readonly trace?: TraceContext | undefined;
}

/**
 * The pet a write without a hold stored. Such a write always stores one (only a hold can be
 * lost); none is a fault of the adapter, not an answer.
 */
export function storedPet(pet: Pet | undefined): Pet {
  if (pet === undefined) throw new Error('a create without a hold answered no pet');
  return pet;
}
