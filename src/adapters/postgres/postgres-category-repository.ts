// CategoryRepository on PostgreSQL. Names are unique by the unique index on name_key (a create
// that races another waits for it, then finds the name taken); a delete locks its row before
// it looks for pets, so that a pet written in the category under PETSTORE_CATEGORIES=registered
// (which locks the row FOR KEY SHARE) is seen, or waits and then finds no category.
import * as O from 'fp-ts/lib/Option.js';
import type { Pool, PoolClient } from 'pg';
import * as domain from '../../domain/index.js';
import type { CurrentTraceContext } from '../shared/trace-context.js';
import { inTransaction } from './in-transaction.js';
import { queryRows } from './postgres-errors.js';
import { safeIntegerFromInt8 } from './postgres-pet-rows.js';
import { EventRecording, traceParameters } from './postgres-event-recording.js';
import { withEvent } from './postgres-pet-statements.js';

interface CategoryRow {
  id: string;
  name: string;
  version: string;
}

const toVersioned = (row: CategoryRow): domain.VersionedCategory => ({
  category: { id: safeIntegerFromInt8(row.id, 'categories.id') as domain.CategoryId, name: row.name as domain.CategoryName },
  version: safeIntegerFromInt8(row.version, 'categories.version'),
});

/** The advisory lock that numbers categories one create at a time: class "catI", keyed by the schema. */
const NUMBERING_LOCK = `${0x63617449}, hashtext(current_schema())`;
const SEQUENCE = "pg_get_serial_sequence('categories', 'id')";
const CATEGORY_DATA = "jsonb_build_object('id', id, 'name', name)";
const UNIQUE_VIOLATION = '23505';

/** Categories in PostgreSQL, beside the pets, through a pool opened by openPostgresPool. */
export class PostgresCategoryRepository implements domain.CategoryRepository {
  private readonly pool: Pool;
  private readonly events: EventRecording;

  /**
   * @param recordEvents whether every change records its event in the outbox, in the change's transaction.
   * @param currentTrace with tracing on, the trace context of the work under way, which each event keeps.
   */
  constructor(pool: Pool, recordEvents = false, currentTrace?: CurrentTraceContext) {
    this.pool = pool;
    this.events = new EventRecording(pool, recordEvents, currentTrace);
  }

  /** `change` and its `values`, with its event when events are recorded (and the trace context under way, after the values). */
  private recorded(change: string, values: readonly unknown[], type: string, data = CATEGORY_DATA): { text: string; values: unknown[] } {
    if (this.events.kind === 'none') return { text: change, values: [...values] };
    const trace = this.events.kind === 'traced' ? traceParameters(values.length + 1) : undefined;
    return { text: withEvent(change, `'${type}'`, data, trace), values: [...values, ...this.events.traceColumns()] };
  }

  /**
   * Under a transaction-scoped lock, so that two creates never draw the same id: the id is
   * above the sequence and above every pet's category_id, and the sequence is moved past it.
   */
  async create(name: domain.CategoryName): Promise<domain.CategoryCreation> {
    const creation = await inTransaction<domain.CategoryCreation>(this.pool, async (client) => {
      await client.query(`SELECT pg_advisory_xact_lock(${NUMBERING_LOCK})`);
      const [row] = await this.insert(
        client,
        `SELECT greatest(nextval(${SEQUENCE}), (SELECT coalesce(max(category_id), 0) + 1 FROM pets)), $1::text, $2::text`,
        [name, domain.categoryNameKey(name)],
        'petstore.category.created',
      );
      if (row === undefined) return { result: { kind: 'name_taken' } };
      await client.query(`SELECT setval(${SEQUENCE}, $1::bigint)`, [row.id]);
      return { result: { kind: 'created', category: toVersioned(row).category } };
    });
    return this.notified(creation);
  }

  /** `outcome`, once the relays are told that its change may have recorded an event. */
  private notified<T>(outcome: T): T {
    this.events.committed();
    return outcome;
  }

  private async insert(client: PoolClient, select: string, values: unknown[], type: string): Promise<CategoryRow[]> {
    const insert = `INSERT INTO categories (id, name, name_key) OVERRIDING SYSTEM VALUE ${select}
                      ON CONFLICT DO NOTHING RETURNING id, name, version`;
    const statement = this.recorded(insert, values, type);
    return (await client.query<CategoryRow>(statement.text, statement.values)).rows;
  }

  async findVersioned(id: domain.CategoryId): Promise<O.Option<domain.VersionedCategory>> {
    const [row] = await queryRows<CategoryRow>(this.pool, {
      name: 'petstore_categories_by_id',
      text: 'SELECT id, name, version FROM categories WHERE id = $1',
      values: [id],
    });
    return row === undefined ? O.none : O.some(toVersioned(row));
  }

  async list({ limit, afterId }: domain.CategoryListQuery): Promise<readonly domain.Category[]> {
    const rows = await queryRows<CategoryRow>(this.pool, {
      name: 'petstore_categories_page',
      text: 'SELECT id, name, version FROM categories WHERE $1::bigint IS NULL OR id > $1 ORDER BY id LIMIT $2',
      values: [afterId ?? null, limit],
    });
    return rows.map((row) => toVersioned(row).category);
  }

  async rename(id: domain.CategoryId, version: domain.CategoryVersion, name: domain.CategoryName): Promise<domain.CategoryRename> {
    try {
      const [row] = await queryRows<CategoryRow>(
        this.pool,
        this.recorded(
          'UPDATE categories SET name = $3, name_key = $4, version = version + 1 WHERE id = $1 AND version = $2 RETURNING id, name, version',
          [id, version, name, domain.categoryNameKey(name)],
          'petstore.category.updated',
        ),
      );
      return row === undefined ? { kind: 'changed' } : this.notified({ kind: 'renamed', category: toVersioned(row) });
    } catch (err) {
      if ((err as { code?: unknown }).code === UNIQUE_VIOLATION) return { kind: 'name_taken' };
      throw err;
    }
  }

  async remove(id: domain.CategoryId, version: domain.CategoryVersion): Promise<domain.CategoryRemoval> {
    const removal = await inTransaction<domain.CategoryRemoval>(this.pool, async (client) => {
      const locked = await client.query<{ version: string }>('SELECT version FROM categories WHERE id = $1 FOR UPDATE', [id]);
      if (locked.rows[0] === undefined || Number(locked.rows[0].version) !== version) return { result: 'changed', rollback: true };
      // A statement of its own, so a snapshot taken once the lock is held: it sees a pet committed while the delete waited.
      const used = await client.query<{ used: boolean }>('SELECT EXISTS (SELECT 1 FROM pets WHERE category_id = $1) AS used', [id]);
      if (used.rows[0]!.used) return { result: 'in_use', rollback: true };
      const deleted = this.recorded(
        'DELETE FROM categories WHERE id = $1 RETURNING id',
        [id],
        'petstore.category.deleted',
        "jsonb_build_object('id', id)",
      );
      await client.query(deleted.text, deleted.values);
      return { result: 'removed' };
    });
    return this.notified(removal);
  }

  async exists(id: domain.CategoryId): Promise<boolean> {
    return O.isSome(await this.findVersioned(id));
  }

  async registerUsed(): Promise<domain.RegisteredCategories> {
    const registered = await inTransaction<domain.RegisteredCategories>(this.pool, async (client) => {
      await client.query(`SELECT pg_advisory_xact_lock(${NUMBERING_LOCK})`);
      const unregistered = 'FROM pets p WHERE NOT EXISTS (SELECT 1 FROM categories c WHERE c.id = p.category_id)';
      const rows = await this.insert(
        client,
        `SELECT DISTINCT category_id, 'Category ' || category_id, 'category ' || category_id ${unregistered} ORDER BY 1`,
        [],
        'petstore.category.created',
      );
      const left = await client.query<{ id: string }>(`SELECT DISTINCT category_id AS id ${unregistered} ORDER BY 1`);
      await client.query(
        `SELECT setval(${SEQUENCE}, greatest((SELECT max(id) FROM categories), (SELECT last_value FROM categories_id_seq)))`,
      );
      return {
        result: {
          registered: rows.map((row) => toVersioned(row).category).sort((a, b) => a.id - b.id),
          nameTaken: left.rows.map((row) => safeIntegerFromInt8(row.id, 'pets.category_id') as domain.CategoryId),
        },
      };
    });
    return this.notified(registered);
  }
}
