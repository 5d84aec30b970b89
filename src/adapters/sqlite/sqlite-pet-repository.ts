// PetRepository on better-sqlite3. The driver is synchronous; the port is not, so each
// method answers with a promise (see ports.ts for why).
import * as O from 'fp-ts/lib/Option.js';
import type { Database, Statement } from 'better-sqlite3';
import type {
  CategoryId,
  IdempotencyHold,
  Pet,
  PetDraft,
  PetId,
  PetListQuery,
  PetName,
  PetRepository,
  PetStatus,
  PetVersion,
  VersionedPet,
} from '../../domain/index.js';
import { type PetWrite, storedPet } from '../shared/pet-write.js';
import { groupCommit } from './group-commit.js';

// Rows come as arrays (the statements are in raw mode): better-sqlite3 then makes no object
// with named keys per row, which made a page of 20 pets about 30 % slower to read.
type PetRow = [id: number, name: string, categoryId: number, status: PetStatus];
type VersionedPetRow = [id: number, name: string, categoryId: number, status: PetStatus, version: number];

const toPet = ([id, name, categoryId, status]: PetRow | VersionedPetRow): Pet => ({
  id: id as PetId,
  name: name as PetName,
  categoryId: categoryId as CategoryId,
  status,
});

const toVersionedPet = (row: VersionedPetRow): VersionedPet => ({ pet: toPet(row), version: row[4] });

/** Pets in a SQLite database opened by {@link openSqliteDatabase}. */
export class SqlitePetRepository implements PetRepository {
  // Prepared once: every query is a prepared statement with bound parameters.
  private readonly insert: Statement<[string, number, string], never>;
  // The idempotency records of SqliteIdempotencyStore, in the same database: completed in the pet's transaction.
  private readonly heldRecord: Statement<[string, string, string], { held: number }>;
  private readonly completeRecord: Statement<[string, string, string, string]>;
  private readonly writeGrouped: (write: PetWrite) => Promise<Pet | undefined>;
  private readonly selectById: Statement<[number], PetRow>;
  private readonly selectPage: Statement<[number, number], PetRow>;
  private readonly selectPageByStatus: Statement<[string, number, number], PetRow>;
  private readonly selectVersionedById: Statement<[number], VersionedPetRow>;
  // Compare-and-set in one statement: the version is compared where the row is written.
  private readonly updateAtVersion: Statement<[string, number, string, number, number], VersionedPetRow>;
  private readonly deleteAtVersion: Statement<[number, number]>;

  constructor(db: Database) {
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
    this.writeGrouped = groupCommit(db, (write: PetWrite) => this.writeOne(write));
  }

  /** Creates share their transaction, and so their fsync, with the other creates of the same event-loop turn. */
  async create(draft: PetDraft): Promise<Pet> {
    return storedPet(await this.writeGrouped({ draft }));
  }

  /** The same group commit: the pet and the record's completion are in one savepoint of the turn's transaction. */
  async createCompleting(draft: PetDraft, hold: IdempotencyHold): Promise<O.Option<Pet>> {
    return O.fromNullable(await this.writeGrouped({ draft, hold }));
  }

  // Inside the turn's transaction (groupCommit): a throw undoes this write alone.
  private writeOne({ draft, hold }: PetWrite): Pet | undefined {
    if (hold !== undefined && this.heldRecord.get(hold.scope, hold.key, hold.token) === undefined) return undefined;
    const { lastInsertRowid } = this.insert.run(draft.name, draft.categoryId, draft.status);
    const id = Number(lastInsertRowid);
    if (!Number.isSafeInteger(id)) throw new Error('pet id beyond the exactly representable range');
    const pet: Pet = { id: id as PetId, name: draft.name, categoryId: draft.categoryId, status: draft.status };
    if (hold !== undefined && this.completeRecord.run(JSON.stringify(pet), hold.scope, hold.key, hold.token).changes !== 1) {
      throw new Error('the idempotency record was not completed with its pet');
    }
    return pet;
  }

  async findById(id: PetId): Promise<O.Option<Pet>> {
    const row = this.selectById.get(id);
    return row === undefined ? O.none : O.some(toPet(row));
  }

  async list({ limit, status, afterId = 0 as PetId }: PetListQuery): Promise<readonly Pet[]> {
    const rows = status === undefined ? this.selectPage.all(afterId, limit) : this.selectPageByStatus.all(status, afterId, limit);
    return rows.map(toPet);
  }

  async findVersioned(id: PetId): Promise<O.Option<VersionedPet>> {
    const row = this.selectVersionedById.get(id);
    return row === undefined ? O.none : O.some(toVersionedPet(row));
  }

  async update(id: PetId, version: PetVersion, draft: PetDraft): Promise<O.Option<VersionedPet>> {
    const row = this.updateAtVersion.get(draft.name, draft.categoryId, draft.status, id, version);
    return row === undefined ? O.none : O.some(toVersionedPet(row));
  }

  /** A hard delete: AUTOINCREMENT keeps the highest id ever used (sqlite_sequence), so no id comes back. */
  async remove(id: PetId, version: PetVersion): Promise<boolean> {
    return this.deleteAtVersion.run(id, version).changes === 1;
  }
}
