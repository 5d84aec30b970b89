// CategoryRepository on better-sqlite3: each method is one synchronous transaction, and the
// one writer of the file at a time makes a delete's check of the pets and its write one step.
import * as O from 'fp-ts/lib/Option.js';
import type { Database, Statement } from 'better-sqlite3';
import * as domain from '../../domain/index.js';
import type { SqliteEventOutbox } from './sqlite-event-outbox.js';

type CategoryRow = [id: number, name: string, version: number];

const toVersioned = ([id, name, version]: CategoryRow): domain.VersionedCategory => ({
  category: { id: id as domain.CategoryId, name: name as domain.CategoryName },
  version,
});

// The next id: above every id a category had (sqlite_sequence) and every categoryId a pet has.
const NEXT_ID = `max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'categories'), 0),
                     coalesce((SELECT max(category_id) FROM pets), 0)) + 1`;

// Below every id a category can have (ids are safe integers, negative ones included).
const BEFORE_EVERY_ID = -(2 ** 53) as domain.CategoryId;

/** Categories in a SQLite database opened by openSqliteDatabase, beside its pets. */
export class SqliteCategoryRepository implements domain.CategoryRepository {
  private readonly insert: Statement<[number | null, string, string], CategoryRow>;
  private readonly selectById: Statement<[number], CategoryRow>;
  private readonly selectPage: Statement<[number, number], CategoryRow>;
  private readonly renameAtVersion: Statement<[string, string, number, number], CategoryRow>;
  private readonly deleteAtVersion: Statement<[number, number]>;
  private readonly petInCategory: Statement<[number], number>;
  private readonly usedWithoutRecord: Statement<[], number>;
  private readonly createRecorded: (id: number | null, name: domain.CategoryName) => domain.CategoryCreation;
  private readonly renameRecorded: (id: number, version: number, name: domain.CategoryName) => domain.CategoryRename;
  private readonly removeRecorded: (id: number, version: number) => domain.CategoryRemoval;
  private readonly registerRecorded: () => domain.RegisteredCategories;

  /** @param outbox where every change records its event, in the change's transaction; without one, changes record none. */
  constructor(
    db: Database,
    private readonly outbox?: SqliteEventOutbox,
  ) {
    // ON CONFLICT DO NOTHING: a name taken (by the unique key) inserts nothing and answers no row.
    this.insert = db
      .prepare<[number | null, string, string], CategoryRow>(
        `INSERT INTO categories (id, name, name_key) VALUES (coalesce(?, ${NEXT_ID}), ?, ?)
           ON CONFLICT DO NOTHING RETURNING id, name, version`,
      )
      .raw(true);
    this.selectById = db.prepare<[number], CategoryRow>('SELECT id, name, version FROM categories WHERE id = ?').raw(true);
    this.selectPage = db
      .prepare<[number, number], CategoryRow>('SELECT id, name, version FROM categories WHERE id > ? ORDER BY id LIMIT ?')
      .raw(true);
    this.renameAtVersion = db
      .prepare<[string, string, number, number], CategoryRow>(
        `UPDATE OR IGNORE categories SET name = ?, name_key = ?, version = version + 1 WHERE id = ? AND version = ?
         RETURNING id, name, version`,
      )
      .raw(true);
    this.deleteAtVersion = db.prepare('DELETE FROM categories WHERE id = ? AND version = ?');
    this.petInCategory = db.prepare<[number], number>('SELECT EXISTS (SELECT 1 FROM pets WHERE category_id = ?)').pluck();
    this.usedWithoutRecord = db
      .prepare<[], number>(
        'SELECT DISTINCT category_id FROM pets WHERE category_id NOT IN (SELECT id FROM categories) ORDER BY category_id',
      )
      .pluck();
    this.createRecorded = db.transaction((id: number | null, name: domain.CategoryName) => {
      const row = this.insert.get(id, name, domain.categoryNameKey(name));
      if (row === undefined) return { kind: 'name_taken' } as const;
      const { category } = toVersioned(row);
      this.outbox?.record(domain.categoryCreated(category));
      return { kind: 'created', category } as const;
    });
    this.renameRecorded = db.transaction((id: number, version: number, name: domain.CategoryName): domain.CategoryRename => {
      if (this.selectById.get(id)?.[2] !== version) return { kind: 'changed' };
      // OR IGNORE: a name another category holds updates nothing.
      const row = this.renameAtVersion.get(name, domain.categoryNameKey(name), id, version);
      if (row === undefined) return { kind: 'name_taken' };
      const renamed = toVersioned(row);
      this.outbox?.record(domain.categoryUpdated(renamed.category));
      return { kind: 'renamed', category: renamed };
    });
    this.removeRecorded = db.transaction((id: number, version: number): domain.CategoryRemoval => {
      if (this.selectById.get(id)?.[2] !== version) return 'changed';
      if (this.petInCategory.get(id) === 1) return 'in_use';
      this.deleteAtVersion.run(id, version);
      this.outbox?.record(domain.categoryDeleted(id as domain.CategoryId));
      return 'removed';
    });
    this.registerRecorded = db.transaction(() => {
      const registered: domain.Category[] = [];
      const nameTaken: domain.CategoryId[] = [];
      for (const id of this.usedWithoutRecord.all() as domain.CategoryId[]) {
        const created = this.createRecorded(id, domain.usedCategoryName(id));
        if (created.kind === 'created') registered.push(created.category);
        else nameTaken.push(id);
      }
      return { registered, nameTaken };
    });
  }

  async create(name: domain.CategoryName): Promise<domain.CategoryCreation> {
    return this.createRecorded(null, name);
  }

  async findVersioned(id: domain.CategoryId): Promise<O.Option<domain.VersionedCategory>> {
    const row = this.selectById.get(id);
    return row === undefined ? O.none : O.some(toVersioned(row));
  }

  async list({ limit, afterId = BEFORE_EVERY_ID }: domain.CategoryListQuery): Promise<readonly domain.Category[]> {
    return this.selectPage.all(afterId, limit).map((row) => toVersioned(row).category);
  }

  async rename(id: domain.CategoryId, version: domain.CategoryVersion, name: domain.CategoryName): Promise<domain.CategoryRename> {
    return this.renameRecorded(id, version, name);
  }

  async remove(id: domain.CategoryId, version: domain.CategoryVersion): Promise<domain.CategoryRemoval> {
    return this.removeRecorded(id, version);
  }

  async exists(id: domain.CategoryId): Promise<boolean> {
    return this.selectById.get(id) !== undefined;
  }

  async registerUsed(): Promise<domain.RegisteredCategories> {
    return this.registerRecorded();
  }
}
