// The reference behaviour of PetRepository: what every other adapter must match
// (the contract suite in test/contract runs against all of them).
import * as O from 'fp-ts/lib/Option.js';
import type { Pet, PetDraft, PetId, PetListQuery, PetRepository } from '../../domain/index.js';

export class MemoryPetRepository implements PetRepository {
  // Pets in ascending id order: ids only grow, so appending keeps the order.
  private readonly pets: Pet[] = [];
  private readonly byId = new Map<number, Pet>();
  private lastId = 0;

  async create(draft: PetDraft): Promise<Pet> {
    this.lastId += 1;
    // Frozen, as stored pets are shared with every caller that reads them.
    const pet: Pet = Object.freeze({ id: this.lastId as PetId, name: draft.name, categoryId: draft.categoryId, status: draft.status });
    this.pets.push(pet);
    this.byId.set(pet.id, pet);
    return pet;
  }

  async findById(id: PetId): Promise<O.Option<Pet>> {
    return O.fromNullable(this.byId.get(id));
  }

  async list({ limit, status }: PetListQuery): Promise<readonly Pet[]> {
    if (status === undefined) return this.pets.slice(0, limit);
    const found: Pet[] = [];
    for (const pet of this.pets) {
      if (pet.status !== status) continue;
      found.push(pet);
      if (found.length === limit) break;
    }
    return found;
  }
}
