// PetInventory on SQLite: the counts the triggers of migration 10 keep, read in one statement.
import type { Database, Statement } from 'better-sqlite3';
import { EMPTY_INVENTORY, type Inventory, type PetInventory, type PetStatus } from '../../domain/index.js';

/** The inventory of a SQLite database opened by openSqliteDatabase (which migrates it). */
export class SqlitePetInventory implements PetInventory {
  private readonly select: Statement<[], { status: PetStatus; count: number }>;

  constructor(db: Database) {
    this.select = db.prepare('SELECT status, count FROM pet_counts');
  }

  async count(): Promise<Inventory> {
    const counts: Record<PetStatus, number> = { ...EMPTY_INVENTORY };
    for (const { status, count } of this.select.all()) counts[status] = count;
    return counts;
  }
}
