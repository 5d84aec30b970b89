// The reference behaviour of PetRepository: what every other adapter must match
// (the contract suite in test/contract runs against all of them).
import * as O from 'fp-ts/lib/Option.js';
import {
  type ArchivedPet,
  type CategoryId,
  EMPTY_INVENTORY,
  type Inventory,
  type PetInventory,
  type PetStatus,
  type CategoryRule,
  FIRST_PET_VERSION,
  type IdempotencyHold,
  type Pet,
  type PetDraft,
  type PetId,
  type PetListQuery,
  type PetRepository,
  petCreated,
  petDeleted,
  petUpdated,
  type PetVersion,
  UnknownCategoryError,
  type VersionedPet,
} from '../../domain/index.js';
import type { MemoryEventOutbox } from './memory-event-outbox.js';
import type { MemoryIdempotencyStore } from './memory-idempotency-store.js';

/** Pets in memory: the reference behaviour of {@link PetRepository} and {@link PetInventory}. Nothing is kept after exit. */
export class MemoryPetRepository implements PetRepository, PetInventory {
  // Pets in ascending id order: ids only grow, so appending keeps the order.
  private readonly pets: Pet[] = [];
  private readonly byId = new Map<number, Pet>();
  // The version of each pet changed since its creation; a pet not in it has the first version,
  // so a create writes nothing here.
  private readonly versions = new Map<number, PetVersion>();
  private lastId = 0;
  // The inventory, kept with every change.
  private counts: Record<PetStatus, number> = { ...EMPTY_INVENTORY };
  // Whether a category exists (the rule `registered`): none until a MemoryCategoryRepository is attached.
  private categoryExists: (id: CategoryId) => boolean = () => false;

  /**
   * @param idempotencyStore the store whose records createCompleting completes; without one, it refuses to.
   * @param outbox where every change records its event, in the change's own step; without one, changes record none.
   */
  constructor(
    private readonly idempotencyStore?: MemoryIdempotencyStore,
    private readonly outbox?: MemoryEventOutbox,
  ) {}

  /** Whether createCompleting completes the records of `store`: whether this repository was made with it. */
  completes(store: unknown): boolean {
    return this.idempotencyStore !== undefined && this.idempotencyStore === store;
  }

  /** Makes the rule `registered` look categories up with `exists` (MemoryCategoryRepository's). */
  seeCategories(exists: (id: CategoryId) => boolean): void {
    this.categoryExists = exists;
  }

  private checkCategory(categoryId: CategoryId, rule: CategoryRule): void {
    if (rule === 'registered' && !this.categoryExists(categoryId)) throw new UnknownCategoryError(categoryId);
  }

  async create(draft: PetDraft, rule: CategoryRule = 'open'): Promise<Pet> {
    this.checkCategory(draft.categoryId, rule);
    return this.store(draft);
  }

  // One synchronous step: no other request runs between the check, the pet and the completion.
  async createCompleting(draft: PetDraft, hold: IdempotencyHold, rule: CategoryRule = 'open'): Promise<O.Option<Pet>> {
    const records = this.idempotencyStore;
    if (records === undefined)
      throw new Error('this MemoryPetRepository was made without the MemoryIdempotencyStore whose records it completes');
    if (!records.holds(hold)) return O.none;
    this.checkCategory(draft.categoryId, rule);
    const pet = this.store(draft);
    records.completeHeld(hold, pet);
    return O.some(pet);
  }

  private store(draft: PetDraft): Pet {
    this.lastId += 1;
    const pet = frozenPet(this.lastId as PetId, draft);
    this.pets.push(pet);
    this.byId.set(pet.id, pet);
    this.counts[pet.status] += 1;
    this.outbox?.record(petCreated(pet));
    return pet;
  }

  async findById(id: PetId): Promise<O.Option<Pet>> {
    return O.fromNullable(this.byId.get(id));
  }

  async list({ limit, status, categoryId, afterId }: PetListQuery): Promise<readonly Pet[]> {
    const start = afterId === undefined ? 0 : this.indexAfter(afterId);
    if (status === undefined && categoryId === undefined) return this.pets.slice(start, start + limit);
    const found: Pet[] = [];
    for (let i = start; i < this.pets.length && found.length < limit; i += 1) {
      const pet = this.pets[i]!;
      if ((status === undefined || pet.status === status) && (categoryId === undefined || pet.categoryId === categoryId)) found.push(pet);
    }
    return found;
  }

  /** The categoryIds the stored pets have, each once, in ascending order (MemoryCategoryRepository's reads). */
  categoryIdsUsed(): readonly CategoryId[] {
    return [...new Set(this.pets.map((pet) => pet.categoryId))].sort((a, b) => a - b);
  }

  async findVersioned(id: PetId): Promise<O.Option<VersionedPet>> {
    const pet = this.byId.get(id);
    return pet === undefined ? O.none : O.some({ pet, version: this.versionOf(id) });
  }

  // Compare and write in one synchronous step: no other request runs between them.
  async update(id: PetId, version: PetVersion, draft: PetDraft, rule: CategoryRule = 'open'): Promise<O.Option<VersionedPet>> {
    const current = this.byId.get(id);
    if (current === undefined || this.versionOf(id) !== version) return O.none;
    if (draft.categoryId !== current.categoryId) this.checkCategory(draft.categoryId, rule);
    return O.some(this.write(id, draft));
  }

  // One more version of pet `id` (which exists), with its event.
  private write(id: PetId, draft: PetDraft): VersionedPet {
    const pet = frozenPet(id, draft);
    const version = this.versionOf(id) + 1;
    this.counts[this.byId.get(id)!.status] -= 1;
    this.counts[pet.status] += 1;
    this.pets[this.indexAfter(id) - 1] = pet;
    this.byId.set(id, pet);
    this.versions.set(id, version);
    this.outbox?.record(petUpdated(pet));
    return { pet, version };
  }

  /**
   * Gives pet `id` the status `to`, as a new version with its event, if it is in `from` (any
   * status when undefined); answers it, or undefined when it is not. Synchronous: the order
   * that calls it changes in the same step (MemoryOrderRepository).
   */
  moveStatus(id: PetId, to: PetStatus, from?: PetStatus): VersionedPet | undefined {
    const pet = this.byId.get(id);
    if (pet === undefined || (from !== undefined && pet.status !== from)) return undefined;
    return this.write(id, { name: pet.name, categoryId: pet.categoryId, status: to });
  }

  async count(): Promise<Inventory> {
    return { ...this.counts };
  }

  async remove(id: PetId, version: PetVersion): Promise<boolean> {
    if (!this.byId.has(id) || this.versionOf(id) !== version) return false;
    // lastId is kept: the id is never given again.
    this.pets.splice(this.indexAfter(id) - 1, 1);
    this.counts[this.byId.get(id)!.status] -= 1;
    this.byId.delete(id);
    this.versions.delete(id);
    this.outbox?.record(petDeleted(id));
    return true;
  }

  private versionOf(id: PetId): PetVersion {
    return this.versions.get(id) ?? FIRST_PET_VERSION;
  }

  /**
   * Stores `pet` with its own id and `version`, in id order (MemoryStoreArchive's import),
   * recording no event; a pet already stored under that id is answered instead. Later creates
   * get ids above it.
   */
  restore(pet: Pet, version: PetVersion): ArchivedPet {
    const stored = this.byId.get(pet.id);
    if (stored !== undefined) return { ...stored, version: this.versionOf(stored.id) };
    const frozen = Object.freeze({ id: pet.id, name: pet.name, categoryId: pet.categoryId, status: pet.status });
    this.pets.splice(this.indexAfter(pet.id), 0, frozen);
    this.byId.set(pet.id, frozen);
    this.counts[frozen.status] += 1;
    if (version !== FIRST_PET_VERSION) this.versions.set(pet.id, version);
    this.lastId = Math.max(this.lastId, pet.id);
    return { ...frozen, version };
  }

  /** Every stored pet with its version, in id order (MemoryStoreArchive's export). */
  archived(): readonly ArchivedPet[] {
    return this.pets.map((pet) => ({ ...pet, version: this.versionOf(pet.id) }));
  }

  /** The largest id issued so far (0 before the first), deleted pets' included. */
  idsIssued(): number {
    return this.lastId;
  }

  /** Makes the next pet created get an id above `id` too (MemoryStoreArchive's import); never lowers it. */
  continueAfter(id: number): void {
    this.lastId = Math.max(this.lastId, id);
  }

  /** The index of the first pet whose id is greater than `id` (binary search: pets are in id order). */
  private indexAfter(id: number): number {
    let low = 0;
    let high = this.pets.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.pets[middle]!.id <= id) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

// Frozen, as stored pets are shared with every caller that reads them.
const frozenPet = (id: PetId, draft: PetDraft): Pet =>
  Object.freeze({ id, name: draft.name, categoryId: draft.categoryId, status: draft.status });
