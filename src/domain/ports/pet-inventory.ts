// The counts of the pets by status, kept by the storage as the pets change.
import type { Inventory } from '../inventory.js';

/** How many pets each status has: maintained with every change, so reading it costs the same whatever the number of pets. */
export interface PetInventory {
  /** The counts, exact, all taken at one moment. */
  count(): Promise<Inventory>;
}
