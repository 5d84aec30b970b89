// Pets' rows as PostgreSQL answers them, and the exact numbers of its int8 columns.
import type * as domain from '../../domain/index.js';

export interface PetRow {
  // pg returns bigint (int8) columns as decimal strings, since not every int8 fits a JS number.
  id: string;
  name: string;
  category_id: string;
  status: domain.PetStatus;
}

export interface VersionedPetRow extends PetRow {
  version: string;
}

/** An int8 from the database as a number, exactly, or an error: never a rounded value. */
export function safeIntegerFromInt8(text: string, column: string): number {
  const value = /^-?[0-9]+$/.test(text) ? Number(text) : Number.NaN;
  // Beyond ±(2^53−1), Number() rounds to a value of magnitude ≥ 2^53, which isSafeInteger refuses.
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`${column} ${text} from PostgreSQL cannot be represented exactly (beyond ±(2^53−1))`);
  }
  return value;
}

export const toPet = (row: PetRow): domain.Pet => ({
  id: safeIntegerFromInt8(row.id, 'pets.id') as domain.PetId,
  name: row.name as domain.PetName,
  categoryId: safeIntegerFromInt8(row.category_id, 'pets.category_id') as domain.CategoryId,
  status: row.status,
});

export const toVersionedPet = (row: VersionedPetRow): domain.VersionedPet => ({
  pet: toPet(row),
  version: safeIntegerFromInt8(row.version, 'pets.version'),
});
