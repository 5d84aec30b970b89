// The store's inventory: how many pets it holds in each status, counted at one moment.
import type { PetStatus } from './pet.js';

/** How many pets have each status: exact, and all three taken at the same moment. */
export type Inventory = Readonly<Record<PetStatus, number>>;

/** The inventory of an empty store. */
export const EMPTY_INVENTORY: Inventory = { available: 0, pending: 0, sold: 0 };
