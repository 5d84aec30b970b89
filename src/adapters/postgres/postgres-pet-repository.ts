// PetRepository on PostgreSQL through a pg pool. Any number of server instances may share one
// database: ids come from the database's identity column, never from the process.
import * as O from 'fp-ts/lib/Option.js';
import type { Pool, QueryConfig } from 'pg';
import type { CategoryId, Pet, PetDraft, PetId, PetListQuery, PetName, PetRepository, PetStatus } from '../../domain/index.js';
import { classifyPostgresError } from './postgres-errors.js';

interface PetRow {
  // pg returns bigint (int8) columns as decimal strings, since not every int8 fits a JS number.
  id: string;
  name: string;
  category_id: string;
  status: PetStatus;
}

const COLUMNS = 'id, name, category_id, status';

/** An int8 from the database as a number, exactly, or an error: never a rounded value. */
export function safeIntegerFromInt8(text: string, column: string): number {
  const value = /^-?[0-9]+$/.test(text) ? Number(text) : Number.NaN;
  // Beyond ±(2^53−1), Number() rounds to a value of magnitude ≥ 2^53, which isSafeInteger refuses.
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`${column} ${text} from PostgreSQL cannot be represented exactly (beyond ±(2^53−1))`);
  }
  return value;
}

const toPet = (row: PetRow): Pet => ({
  id: safeIntegerFromInt8(row.id, 'pets.id') as PetId,
  name: row.name as PetName,
  categoryId: safeIntegerFromInt8(row.category_id, 'pets.category_id') as CategoryId,
  status: row.status,
});

export class PostgresPetRepository implements PetRepository {
  constructor(private readonly pool: Pool) {}

  // Every query is a named prepared statement: parsed and planned once per connection.
  private async rows(query: QueryConfig): Promise<PetRow[]> {
    try {
      return (await this.pool.query<PetRow>(query)).rows;
    } catch (err) {
      throw classifyPostgresError(err);
    }
  }

  async create(draft: PetDraft): Promise<Pet> {
    const [row] = await this.rows({
      name: 'petstore_pets_insert',
      text: `INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
      values: [draft.name, draft.categoryId, draft.status],
    });
    if (row === undefined) throw new Error('INSERT … RETURNING gave no row');
    return toPet(row);
  }

  async findById(id: PetId): Promise<O.Option<Pet>> {
    const [row] = await this.rows({
      name: 'petstore_pets_by_id',
      text: `SELECT ${COLUMNS} FROM pets WHERE id = $1`,
      values: [id],
    });
    return row === undefined ? O.none : O.some(toPet(row));
  }

  async list({ limit, status }: PetListQuery): Promise<readonly Pet[]> {
    const rows =
      status === undefined
        ? await this.rows({ name: 'petstore_pets_page', text: `SELECT ${COLUMNS} FROM pets ORDER BY id LIMIT $1`, values: [limit] })
        : await this.rows({
            name: 'petstore_pets_page_by_status',
            text: `SELECT ${COLUMNS} FROM pets WHERE status = $1 ORDER BY id LIMIT $2`,
            values: [status, limit],
          });
    return rows.map(toPet);
  }
}
