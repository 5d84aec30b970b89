// PetInventory on PostgreSQL: the slots the triggers of the inventory keep, summed in one statement.
import type { Pool } from 'pg';
import { EMPTY_INVENTORY, type Inventory, type PetInventory, type PetStatus } from '../../domain/index.js';
import { SELECT_PET_COUNTS } from './pet-counts-sql.js';
import { queryRows } from './postgres-errors.js';
import { safeIntegerFromInt8 } from './postgres-pet-rows.js';

/** The inventory of the database of a pool opened by openPostgresPool (which migrates it). */
export class PostgresPetInventory implements PetInventory {
  constructor(private readonly pool: Pool) {}

  async count(): Promise<Inventory> {
    const rows = await queryRows<{ status: PetStatus; count: string }>(this.pool, { name: 'petstore_pet_counts', text: SELECT_PET_COUNTS });
    const counts: Record<PetStatus, number> = { ...EMPTY_INVENTORY };
    for (const { status, count } of rows) counts[status] = safeIntegerFromInt8(count, 'pet_counts.count');
    return counts;
  }
}
