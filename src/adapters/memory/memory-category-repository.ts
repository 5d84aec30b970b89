// The reference behaviour of CategoryRepository: what every other adapter must match (the
// contract suite in test/contract runs against all of them). It reads the pets of the
// MemoryPetRepository it is given, as the SQL adapters read the pets' table beside theirs.
import * as O from 'fp-ts/lib/Option.js';
import {
  type ArchivedCategory,
  type Category,
  type CategoryCreation,
  categoryCreated,
  categoryDeleted,
  type CategoryId,
  type CategoryListQuery,
  type CategoryName,
  categoryNameKey,
  type CategoryRemoval,
  type CategoryRename,
  type CategoryRepository,
  categoryUpdated,
  type CategoryVersion,
  type RegisteredCategories,
  usedCategoryName,
  type VersionedCategory,
} from '../../domain/index.js';
import type { MemoryEventOutbox } from './memory-event-outbox.js';
import type { MemoryPetRepository } from './memory-pet-repository.js';

/** Categories in memory: the reference behaviour of {@link CategoryRepository}. Nothing is kept after exit. */
export class MemoryCategoryRepository implements CategoryRepository {
  private readonly byId = new Map<number, VersionedCategory>();
  private readonly idByKey = new Map<string, number>();
  private lastId = 0;

  /**
   * @param pets the pets whose categories this repository checks (a delete, the next id,
   *   registerUsed): those of a MemoryPetRepository, or none when the pets are kept elsewhere.
   * @param outbox where every change records its event; without one, changes record none.
   */
  constructor(
    private readonly pets: Pick<MemoryPetRepository, 'categoryIdsUsed'> & Partial<Pick<MemoryPetRepository, 'seeCategories'>>,
    private readonly outbox?: MemoryEventOutbox,
  ) {
    // The pets' rule `registered` looks its categories up here.
    pets.seeCategories?.((id) => this.byId.has(id));
  }

  // Every method below is one synchronous step: no other request runs between its check and its write.
  async create(name: CategoryName): Promise<CategoryCreation> {
    if (this.idByKey.has(categoryNameKey(name))) return { kind: 'name_taken' };
    const id = (Math.max(this.lastId, ...this.pets.categoryIdsUsed()) + 1) as CategoryId;
    const category = this.store(id, name, 1);
    this.outbox?.record(categoryCreated(category));
    return { kind: 'created', category };
  }

  async findVersioned(id: CategoryId): Promise<O.Option<VersionedCategory>> {
    return O.fromNullable(this.byId.get(id));
  }

  async list({ limit, afterId }: CategoryListQuery): Promise<readonly Category[]> {
    return [...this.byId.keys()]
      .filter((id) => afterId === undefined || id > afterId)
      .sort((a, b) => a - b)
      .slice(0, limit)
      .map((id) => this.byId.get(id)!.category);
  }

  async rename(id: CategoryId, version: CategoryVersion, name: CategoryName): Promise<CategoryRename> {
    const current = this.byId.get(id);
    if (current === undefined || current.version !== version) return { kind: 'changed' };
    const holder = this.idByKey.get(categoryNameKey(name));
    if (holder !== undefined && holder !== id) return { kind: 'name_taken' };
    this.idByKey.delete(categoryNameKey(current.category.name));
    const category = this.store(id, name, version + 1);
    this.outbox?.record(categoryUpdated(category));
    return { kind: 'renamed', category: { category, version: version + 1 } };
  }

  async remove(id: CategoryId, version: CategoryVersion): Promise<CategoryRemoval> {
    const current = this.byId.get(id);
    if (current === undefined || current.version !== version) return 'changed';
    if (this.pets.categoryIdsUsed().includes(id)) return 'in_use';
    this.byId.delete(id);
    this.idByKey.delete(categoryNameKey(current.category.name));
    this.outbox?.record(categoryDeleted(id));
    return 'removed';
  }

  async exists(id: CategoryId): Promise<boolean> {
    return this.byId.has(id);
  }

  async registerUsed(): Promise<RegisteredCategories> {
    const registered: Category[] = [];
    const nameTaken: CategoryId[] = [];
    for (const id of this.pets.categoryIdsUsed()) {
      if (this.byId.has(id)) continue;
      const name = usedCategoryName(id);
      if (this.idByKey.has(categoryNameKey(name))) {
        nameTaken.push(id);
        continue;
      }
      const category = this.store(id, name, 1);
      this.outbox?.record(categoryCreated(category));
      registered.push(category);
    }
    return { registered, nameTaken };
  }

  /** Every stored category with its version, in id order (MemoryStoreArchive's export). */
  archived(): readonly ArchivedCategory[] {
    return [...this.byId.values()].map(({ category, version }) => ({ ...category, version })).sort((a, b) => a.id - b.id);
  }

  /** Stores `category` with its own id and version (MemoryStoreArchive's import, checked there), recording no event. */
  restore({ version, ...category }: ArchivedCategory): void {
    this.store(category.id, category.name, version);
  }

  private store(id: CategoryId, name: CategoryName, version: CategoryVersion): Category {
    const category: Category = Object.freeze({ id, name });
    this.byId.set(id, Object.freeze({ category, version }));
    this.idByKey.set(categoryNameKey(name), id);
    this.lastId = Math.max(this.lastId, id);
    return category;
  }
}
