// PetRepository on better-sqlite3. The driver is synchronous; the port is not, so each
// method answers with a promise (see ports.ts for why).
import * as O from 'fp-ts/lib/Option.js';
import type { Database, Statement } from 'better-sqlite3';
import type { CategoryId, Pet, PetDraft, PetId, PetListQuery, PetName, PetRepository, PetStatus } from '../../domain/index.js';
import { groupCommit } from './group-commit.js';

// Rows come as arrays (the statements are in raw mode): better-sqlite3 then makes no object
// with named keys per row, which made a page of 20 pets about 30 % slower to read.
type PetRow = [id: number, name: string, categoryId: number, status: PetStatus];

const toPet = ([id, name, categoryId, status]: PetRow): Pet => ({
  id: id as PetId,
  name: name as PetName,
  categoryId: categoryId as CategoryId,
  status,
});

/** Pets in a SQLite database opened by {@link openSqliteDatabase}. */
export class SqlitePetRepository implements PetRepository {
  // Prepared once: every query is a prepared statement with bound parameters.
  private readonly insert: Statement<[string, number, string], never>;
  private readonly insertGrouped: (draft: PetDraft) => Promise<Pet>;
  private readonly selectById: Statement<[number], PetRow>;
  private readonly selectPage: Statement<[number, number], PetRow>;
  private readonly selectPageByStatus: Statement<[string, number, number], PetRow>;

  constructor(db: Database) {
    this.insert = db.prepare('INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)');
    this.selectById = db.prepare<[number], PetRow>('SELECT id, name, category_id, status FROM pets WHERE id = ?').raw(true);
    // Keyset paging: `id > ?` walks the primary key (or the (status, id) index) from the
    // cursor on, so a page deep in the table costs what the first one does.
    this.selectPage = db
      .prepare<[number, number], PetRow>('SELECT id, name, category_id, status FROM pets WHERE id > ? ORDER BY id LIMIT ?')
      .raw(true);
    this.selectPageByStatus = db
      .prepare<[string, number, number], PetRow>('SELECT id, name, category_id, status FROM pets WHERE status = ? AND id > ? ORDER BY id LIMIT ?')
      .raw(true);
    this.insertGrouped = groupCommit(db, (draft: PetDraft) => this.insertOne(draft));
  }

  /** Creates share their transaction, and so their fsync, with the other creates of the same event-loop turn. */
  create(draft: PetDraft): Promise<Pet> {
    return this.insertGrouped(draft);
  }

  private insertOne(draft: PetDraft): Pet {
    const { lastInsertRowid } = this.insert.run(draft.name, draft.categoryId, draft.status);
    const id = Number(lastInsertRowid);
    if (!Number.isSafeInteger(id)) throw new Error('pet id beyond the exactly representable range');
    return { id: id as PetId, name: draft.name, categoryId: draft.categoryId, status: draft.status };
  }

  async findById(id: PetId): Promise<O.Option<Pet>> {
    const row = this.selectById.get(id);
    return row === undefined ? O.none : O.some(toPet(row));
  }

  async list({ limit, status, afterId = 0 as PetId }: PetListQuery): Promise<readonly Pet[]> {
    const rows =
      status === undefined ? this.selectPage.all(afterId, limit) : this.selectPageByStatus.all(status, afterId, limit);
    return rows.map(toPet);
  }
}
