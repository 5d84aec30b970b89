// PetRepository on PostgreSQL through a pg pool. Any number of server instances may share one
// database: ids come from the database's identity column, never from the process.
import * as O from 'fp-ts/lib/Option.js';
import type { Pool, QueryConfig } from 'pg';
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
} from '../../domain/index.js';
import { queryRows } from './postgres-errors.js';

interface PetRow {
  // pg returns bigint (int8) columns as decimal strings, since not every int8 fits a JS number.
  id: string;
  name: string;
  category_id: string;
  status: PetStatus;
}

const COLUMNS = 'id, name, category_id, status';

/**
 * The advisory lock that orders inserts into pets (see create()): class "petI", keyed by the
 * schema, so that services on different schemas of one database never wait for each other.
 */
const INSERT_ORDER_LOCK = `${0x70657449}, hashtext(current_schema())`;

/** The insert of a pet, in id order with every other insert (see create()). Exported for its test. */
export const INSERT_PET_SQL = `WITH ordered AS (SELECT pg_advisory_xact_lock(${INSERT_ORDER_LOCK}))
  INSERT INTO pets (name, category_id, status) SELECT $1, $2, $3 FROM ordered RETURNING ${COLUMNS}`;

/**
 * A pet inserted as the result of a held idempotency record, and the record completed with it,
 * in one statement and so one transaction: both or neither. The record is locked first (FOR
 * UPDATE), so no claim can take it over meanwhile; when the hold no longer holds it, nothing
 * is inserted and no row comes back. The pet is stored in the record as JSON, as the claim reads it.
 */
const INSERT_COMPLETING_SQL = `WITH held AS (
    SELECT 1 FROM idempotency_keys WHERE scope = $4 AND key = $5 AND token = $6 AND pet IS NULL FOR UPDATE
  ), ordered AS (SELECT pg_advisory_xact_lock(${INSERT_ORDER_LOCK}) FROM held),
  inserted AS (INSERT INTO pets (name, category_id, status) SELECT $1, $2, $3 FROM ordered RETURNING ${COLUMNS}),
  completed AS (
    UPDATE idempotency_keys
       SET pet = (SELECT jsonb_build_object('id', id, 'name', name, 'categoryId', category_id, 'status', status) FROM inserted)
     WHERE scope = $4 AND key = $5 AND token = $6 AND EXISTS (SELECT 1 FROM inserted)
  )
  SELECT ${COLUMNS} FROM inserted`;

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

/** Pets in PostgreSQL, through a pool opened by {@link openPostgresPool}; any number of instances may share the database. */
export class PostgresPetRepository implements PetRepository {
  constructor(private readonly pool: Pool) {}

  // Every query is a named prepared statement: parsed and planned once per connection.
  private rows(query: QueryConfig): Promise<PetRow[]> {
    return queryRows<PetRow>(this.pool, query);
  }

  async create(draft: PetDraft): Promise<Pet> {
    // Keyset paging (id > last) needs ids to become visible in id order. Across connections a
    // sequence hands out 7 before 8 but may commit 8 first, and a reader paging past 8 would
    // never see 7. A transaction-scoped advisory lock, taken before the id is drawn and held
    // to the commit of this one statement, makes inserts draw and commit in the same order.
    const [row] = await this.rows({
      name: 'petstore_pets_insert',
      text: INSERT_PET_SQL,
      values: [draft.name, draft.categoryId, draft.status],
    });
    if (row === undefined) throw new Error('INSERT … RETURNING gave no row');
    return toPet(row);
  }

  async createCompleting(draft: PetDraft, hold: IdempotencyHold): Promise<O.Option<Pet>> {
    const [row] = await this.rows({
      name: 'petstore_pets_insert_completing',
      text: INSERT_COMPLETING_SQL,
      values: [draft.name, draft.categoryId, draft.status, hold.scope, hold.key, hold.token],
    });
    return row === undefined ? O.none : O.some(toPet(row));
  }

  async findById(id: PetId): Promise<O.Option<Pet>> {
    const [row] = await this.rows({
      name: 'petstore_pets_by_id',
      text: `SELECT ${COLUMNS} FROM pets WHERE id = $1`,
      values: [id],
    });
    return row === undefined ? O.none : O.some(toPet(row));
  }

  // Keyset paging: `id > $n` walks the primary key or the (status, id) index from the cursor on.
  async list({ limit, status, afterId = 0 as PetId }: PetListQuery): Promise<readonly Pet[]> {
    const rows =
      status === undefined
        ? await this.rows({
            name: 'petstore_pets_page',
            text: `SELECT ${COLUMNS} FROM pets WHERE id > $1 ORDER BY id LIMIT $2`,
            values: [afterId, limit],
          })
        : await this.rows({
            name: 'petstore_pets_page_by_status',
            text: `SELECT ${COLUMNS} FROM pets WHERE status = $1 AND id > $2 ORDER BY id LIMIT $3`,
            values: [status, afterId, limit],
          });
    return rows.map(toPet);
  }
}
