// PetRepository on better-sqlite3. The driver is synchronous; the port is not, so each
// method answers with a promise (see ports.ts for why).
import * as O from 'fp-ts/lib/Option.js';
import type { Database, Statement } from 'better-sqlite3';
import type * as domain from '../../domain/index.js';
import { petCreated, petDeleted, petUpdated, UnknownCategoryError } from '../../domain/index.js';
import { categoryPageSql, categoryStatusPageSql } from '../shared/category-pages.js';
import { type PetWrite, storedPet } from '../shared/pet-write.js';
import { type GroupCommit, groupCommit } from './group-commit.js';
import type { SqliteEventOutbox } from './sqlite-event-outbox.js';

// Rows come as arrays (the statements are in raw mode): better-sqlite3 then makes no object
// with named keys per row, which made a page of 20 pets about 30 % slower to read.
type PetRow = [id: number, name: string, categoryId: number, status: domain.PetStatus];
type VersionedPetRow = [id: number, name: string, categoryId: number, status: domain.PetStatus, version: number];

const PET_COLUMNS = 'id, name, category_id, status';
const NAMED = { category: '@category', after: '@after', limit: '@limit' } as const;
interface PageOfCategory {
  readonly category: number;
  readonly after: number;
  readonly limit: number;
}

const toPet = ([id, name, categoryId, status]: PetRow | VersionedPetRow): domain.Pet => ({
  id: id as domain.PetId,
  name: name as domain.PetName,
  categoryId: categoryId as domain.CategoryId,
  status,
});

const toVersionedPet = (row: VersionedPetRow): domain.VersionedPet => ({ pet: toPet(row), version: row[4] });

/** Pets in a SQLite database opened by {@link openSqliteDatabase}. */
export class SqlitePetRepository implements domain.PetRepository {
  // Prepared once: every query is a prepared statement with bound parameters.
  private readonly insert: Statement<[string, number, string], never>;
  // The idempotency records of SqliteIdempotencyStore, in the same database: completed in the pet's transaction.
  private readonly heldRecord: Statement<[string, string, string], { held: number }>;
  private readonly completeRecord: Statement<[string, string, string, string]>;
  private readonly commit: GroupCommit;
  private readonly selectById: Statement<[number], PetRow>;
  private readonly selectPage: Statement<[number, number], PetRow>;
  private readonly selectPageByStatus: Statement<[string, number, number], PetRow>;
  private readonly selectPageByCategory: Statement<[PageOfCategory], PetRow>;
  private readonly selectPageByCategoryStatus: Statement<[PageOfCategory & { status: string }], PetRow>;
  private readonly selectVersionedById: Statement<[number], VersionedPetRow>;
  // Compare-and-set in one statement: the version is compared where the row is written.
  private readonly updateAtVersion: Statement<[string, number, string, number, number], VersionedPetRow>;
  private readonly deleteAtVersion: Statement<[number, number]>;
  // The rule `registered`: whether a category exists, and whether a change moves a pet to another category.
  private readonly categoryExists: Statement<[number], number>;
  private readonly movesCategory: Statement<[number, number, number], number>;
  // A change and its event in one transaction (creates: the turn's, whose savepoint holds both).
  private readonly updateRecorded: (
    id: domain.PetId,
    version: domain.PetVersion,
    draft: domain.PetDraft,
    rule: domain.CategoryRule,
  ) => VersionedPetRow | undefined;
  private readonly removeRecorded: (id: domain.PetId, version: domain.PetVersion) => boolean;

  /** @param outbox where every change records its event, in the change's transaction; without one, changes record none. */
  constructor(
    db: Database,
    private readonly outbox?: SqliteEventOutbox,
  ) {
    this.insert = db.prepare('INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)');
    this.selectById = db.prepare<[number], PetRow>('SELECT id, name, category_id, status FROM pets WHERE id = ?').raw(true);
    // Keyset paging: `id > ?` walks the primary key (or the (status, id) index) from the
    // cursor on, so a page deep in the table costs what the first one does.
    this.selectPage = db
      .prepare<[number, number], PetRow>('SELECT id, name, category_id, status FROM pets WHERE id > ? ORDER BY id LIMIT ?')
      .raw(true);
    this.selectPageByStatus = db
      .prepare<[string, number, number], PetRow>(
        'SELECT id, name, category_id, status FROM pets WHERE status = ? AND id > ? ORDER BY id LIMIT ?',
      )
      .raw(true);
    this.selectPageByCategory = db.prepare<[PageOfCategory], PetRow>(categoryPageSql(PET_COLUMNS, NAMED)).raw(true);
    this.selectPageByCategoryStatus = db
      .prepare<[PageOfCategory & { status: string }], PetRow>(categoryStatusPageSql(PET_COLUMNS, NAMED, '@status'))
      .raw(true);
    this.selectVersionedById = db
      .prepare<[number], VersionedPetRow>('SELECT id, name, category_id, status, version FROM pets WHERE id = ?')
      .raw(true);
    this.updateAtVersion = db
      .prepare<[string, number, string, number, number], VersionedPetRow>(
        'UPDATE pets SET name = ?, category_id = ?, status = ?, version = version + 1 WHERE id = ? AND version = ? RETURNING id, name, category_id, status, version',
      )
      .raw(true);
    this.deleteAtVersion = db.prepare('DELETE FROM pets WHERE id = ? AND version = ?');
    this.heldRecord = db.prepare('SELECT 1 AS held FROM idempotency_keys WHERE scope = ? AND key = ? AND token = ? AND pet IS NULL');
    this.completeRecord = db.prepare('UPDATE idempotency_keys SET pet = ? WHERE scope = ? AND key = ? AND token = ? AND pet IS NULL');
    this.categoryExists = db.prepare<[number], number>('SELECT EXISTS (SELECT 1 FROM categories WHERE id = ?)').pluck();
    this.movesCategory = db
      .prepare<[number, number, number], number>('SELECT EXISTS (SELECT 1 FROM pets WHERE id = ? AND version = ? AND category_id <> ?)')
      .pluck();
    this.commit = groupCommit(db);
    // One writer at a time: no delete of the category can come between its check and the write.
    this.updateRecorded = db.transaction(
      (id: domain.PetId, version: domain.PetVersion, draft: domain.PetDraft, rule: domain.CategoryRule) => {
        if (rule === 'registered' && this.movesCategory.get(id, version, draft.categoryId) === 1) this.checkCategory(draft.categoryId);
        const row = this.updateAtVersion.get(draft.name, draft.categoryId, draft.status, id, version);
        if (row !== undefined) this.outbox?.record(petUpdated(toPet(row)));
        return row;
      },
    );
    this.removeRecorded = db.transaction((id: domain.PetId, version: domain.PetVersion) => {
      const removed = this.deleteAtVersion.run(id, version).changes === 1;
      if (removed) this.outbox?.record(petDeleted(id));
      return removed;
    });
  }

  /** Creates share their transaction, and so their fsync, with the other creates of the same event-loop turn. */
  async create(draft: domain.PetDraft, rule: domain.CategoryRule = 'open'): Promise<domain.Pet> {
    return storedPet(await this.commit(this.inCallersTrace(() => this.writeOne({ draft, rule }))));
  }

  /** The same group commit: the pet and the record's completion are in one savepoint of the turn's transaction. */
  async createCompleting(
    draft: domain.PetDraft,
    hold: domain.IdempotencyHold,
    rule: domain.CategoryRule = 'open',
  ): Promise<O.Option<domain.Pet>> {
    return O.fromNullable(await this.commit(this.inCallersTrace(() => this.writeOne({ draft, hold, rule }))));
  }

  // A write the group commit runs later records its event with the trace of its caller.
  private inCallersTrace<O>(write: () => O): () => O {
    return this.outbox === undefined ? write : this.outbox.inCallersTrace(write);
  }

  private checkCategory(categoryId: domain.CategoryId): void {
    if (this.categoryExists.get(categoryId) !== 1) throw new UnknownCategoryError(categoryId);
  }

  // Inside the turn's transaction (groupCommit): a throw undoes this write alone.
  private writeOne({ draft, hold, rule }: PetWrite): domain.Pet | undefined {
    if (hold !== undefined && this.heldRecord.get(hold.scope, hold.key, hold.token) === undefined) return undefined;
    if (rule === 'registered') this.checkCategory(draft.categoryId);
    const { lastInsertRowid } = this.insert.run(draft.name, draft.categoryId, draft.status);
    const id = Number(lastInsertRowid);
    if (!Number.isSafeInteger(id)) throw new Error('pet id beyond the exactly representable range');
    const pet: domain.Pet = { id: id as domain.PetId, name: draft.name, categoryId: draft.categoryId, status: draft.status };
    if (hold !== undefined && this.completeRecord.run(JSON.stringify(pet), hold.scope, hold.key, hold.token).changes !== 1) {
      throw new Error('the idempotency record was not completed with its pet');
    }
    this.outbox?.record(petCreated(pet));
    return pet;
  }

  async findById(id: domain.PetId): Promise<O.Option<domain.Pet>> {
    const row = this.selectById.get(id);
    return row === undefined ? O.none : O.some(toPet(row));
  }

  async list({ limit, status, categoryId, afterId = 0 as domain.PetId }: domain.PetListQuery): Promise<readonly domain.Pet[]> {
    if (categoryId !== undefined) {
      const page = { category: categoryId, after: afterId, limit };
      const rows = status === undefined ? this.selectPageByCategory.all(page) : this.selectPageByCategoryStatus.all({ ...page, status });
      return rows.map(toPet);
    }
    const rows = status === undefined ? this.selectPage.all(afterId, limit) : this.selectPageByStatus.all(status, afterId, limit);
    return rows.map(toPet);
  }

  async findVersioned(id: domain.PetId): Promise<O.Option<domain.VersionedPet>> {
    const row = this.selectVersionedById.get(id);
    return row === undefined ? O.none : O.some(toVersionedPet(row));
  }

  async update(
    id: domain.PetId,
    version: domain.PetVersion,
    draft: domain.PetDraft,
    rule: domain.CategoryRule = 'open',
  ): Promise<O.Option<domain.VersionedPet>> {
    const row = this.updateRecorded(id, version, draft, rule);
    return row === undefined ? O.none : O.some(toVersionedPet(row));
  }

  /** A hard delete: AUTOINCREMENT keeps the highest id ever used (sqlite_sequence), so no id comes back. */
  async remove(id: domain.PetId, version: domain.PetVersion): Promise<boolean> {
    return this.removeRecorded(id, version);
  }
}
