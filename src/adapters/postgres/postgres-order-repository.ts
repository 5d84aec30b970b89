// OrderRepository on PostgreSQL, beside PostgresPetRepository in the same database. Any number
// of instances may share it: a placement reserves its pet with a conditional write on the pet's
// row, so of concurrent placements for one pet, from any instance, one wins; and the partial
// unique index on open orders holds even against a writer that skips this adapter.
import * as O from 'fp-ts/lib/Option.js';
import type { Pool, QueryConfig, QueryResultRow } from 'pg';
import type * as domain from '../../domain/index.js';
import { OPEN_ORDER_SQL } from '../shared/order-tables.js';
import { ORDER_COLUMNS, type OrderRow, versionedOrderOfRow } from '../shared/order-rows.js';
import type { CurrentTraceContext } from '../shared/trace-context.js';
import { type WriteOutcome, writeBatches } from '../shared/write-batches.js';
import { queryRows } from './postgres-errors.js';
import { changeOrderSql, placeOrderSql, placeOrdersSql } from './postgres-order-statements.js';
import { EventRecording, type NamedStatement } from './postgres-event-recording.js';

type KeyedRow = OrderRow & { key_fingerprint: string };

/** A placement as a batch carries it, with its caller's trace context. */
interface Placement {
  readonly petId: domain.PetId;
  readonly note: domain.OrderNote | undefined;
  readonly at: Date;
  readonly trace: domain.TraceContext | undefined;
}

/** PostgreSQL's unique_violation: here, a concurrent placement took the same idempotency key first. */
const isUniqueViolation = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === '23505';

/** Orders in PostgreSQL, through a pool opened by openPostgresPool. */
export class PostgresOrderRepository implements domain.OrderRepository {
  private readonly placeStatement: NamedStatement;
  private readonly changeStatement: NamedStatement;
  private readonly placeBatchStatement: NamedStatement;
  /** Placements without a key share one statement, and so one commit, with the others of their turn (writeBatches). */
  private readonly placeBatched = writeBatches((writes: readonly Placement[]) => this.placeBatch(writes));

  private readonly pool: Pool;
  private readonly events: EventRecording;

  /**
   * @param recordEvents whether every change records the events of the pet and the order in the outbox, in its statement.
   * @param currentTrace with tracing on, the trace context of the work under way, which they keep.
   */
  constructor(pool: Pool, recordEvents = false, currentTrace?: CurrentTraceContext) {
    this.pool = pool;
    this.events = new EventRecording(pool, recordEvents, currentTrace);
    this.placeStatement = this.events.named('petstore_orders_place', placeOrderSql(this.events.kind));
    this.changeStatement = this.events.named('petstore_orders_change', changeOrderSql(this.events.kind));
    this.placeBatchStatement = this.events.named('petstore_orders_place_batch', placeOrdersSql(this.events.kind));
  }

  // Every query is a named prepared statement: parsed and planned once per connection.
  private rows<R extends QueryResultRow = OrderRow>(query: QueryConfig): Promise<R[]> {
    return queryRows<R>(this.pool, query);
  }

  async place({ petId, note, at, key }: domain.OrderPlacementRequest): Promise<domain.OrderPlacement> {
    if (key !== undefined) return this.placeKeyed({ petId, note, at, trace: undefined }, key);
    // The caller's trace context, now: the batch is written later, outside its span.
    const placed = await this.placeBatched({ petId, note, at, trace: this.events.trace() });
    return placed === undefined ? { kind: 'not-available' } : { kind: 'placed', order: placed };
  }

  /**
   * One batch's placements in one statement, so one commit. A batch that fails stores nothing
   * and fails each of its placements (none has a value of its own that the database could refuse).
   */
  private async placeBatch(writes: readonly Placement[]): Promise<readonly WriteOutcome<domain.VersionedOrder | undefined>[]> {
    const rows = await this.rows({
      ...this.placeBatchStatement,
      values: [
        writes.map((w) => w.petId),
        writes.map((w) => w.note ?? null),
        writes.map((w) => w.at),
        ...this.events.traceArrays(writes.map((w) => w.trace)),
      ],
    });
    if (rows.length > 0) this.events.committed();
    // Each pet placed answers the first of its writes in the batch; the others find it taken.
    const placed = new Map(rows.map((row) => [Number(row.pet_id), versionedOrderOfRow(row)]));
    return writes.map((write) => {
      const order = placed.get(write.petId);
      placed.delete(write.petId);
      return { ok: true, output: order };
    });
  }

  /** A placement with an idempotency key: alone, as the key is looked up and claimed around it. */
  private async placeKeyed({ petId, note, at }: Placement, key: domain.OrderKey): Promise<domain.OrderPlacement> {
    const keyed = await this.findKeyed(key, at);
    if (O.isSome(keyed)) return { kind: 'keyed', keyed: keyed.value };
    await this.rows({
      name: 'petstore_orders_forget_key',
      text: 'UPDATE orders SET key_scope = NULL, key = NULL, key_fingerprint = NULL, key_expires_at = NULL WHERE key_scope = $1 AND key = $2',
      values: [key.scope, key.key],
    });
    let placed: OrderRow[];
    try {
      placed = await this.rows({
        ...this.placeStatement,
        values: [petId, note ?? null, at, key.scope, key.key, key.fingerprint, key.expiresAt, ...this.events.traceColumns()],
      });
    } catch (err) {
      // Another placement with the key committed first: this one stored nothing; answer that one.
      if (!isUniqueViolation(err)) throw err;
      const keyed = await this.findKeyed(key, at);
      if (O.isNone(keyed)) throw err;
      return { kind: 'keyed', keyed: keyed.value };
    }
    const [row] = placed;
    if (row === undefined) return { kind: 'not-available' };
    this.events.committed();
    return { kind: 'placed', order: versionedOrderOfRow(row) };
  }

  async findKeyed(id: domain.IdempotencyRecordId, now: Date): Promise<O.Option<domain.KeyedOrder>> {
    const [row] = await this.rows<KeyedRow>({
      name: 'petstore_orders_keyed',
      text: `SELECT key_fingerprint, ${ORDER_COLUMNS} FROM orders WHERE key_scope = $1 AND key = $2 AND key_expires_at > $3`,
      values: [id.scope, id.key, now],
    });
    return row === undefined ? O.none : O.some({ fingerprint: row.key_fingerprint, order: versionedOrderOfRow(row).order });
  }

  async findVersioned(id: domain.OrderId): Promise<O.Option<domain.VersionedOrder>> {
    const [row] = await this.rows({
      name: 'petstore_orders_by_id',
      text: `SELECT ${ORDER_COLUMNS} FROM orders WHERE id = $1`,
      values: [id],
    });
    return row === undefined ? O.none : O.some(versionedOrderOfRow(row));
  }

  // Keyset paging on (status, id) or (pet_id, id); NULL filters match every order, and each
  // combination is its own statement, so that the plan of each uses its index.
  async list({ limit, status, petId, afterId = 0 as domain.OrderId }: domain.OrderListQuery): Promise<readonly domain.Order[]> {
    const filters = [...(petId === undefined ? [] : ['pet_id']), ...(status === undefined ? [] : ['status'])];
    const where = filters.map((column, i) => `${column} = $${i + 3} AND `).join('');
    const rows = await this.rows({
      name: `petstore_orders_page${filters.map((column) => `_${column}`).join('')}`,
      text: `SELECT ${ORDER_COLUMNS} FROM orders WHERE ${where}id > $1 ORDER BY id LIMIT $2`,
      values: [afterId, limit, ...(petId === undefined ? [] : [petId]), ...(status === undefined ? [] : [status])],
    });
    return rows.map((row) => versionedOrderOfRow(row).order);
  }

  async change(id: domain.OrderId, version: domain.OrderVersion, move: domain.OrderMove): Promise<O.Option<domain.VersionedOrder>> {
    const [row] = await this.rows({
      ...this.changeStatement,
      values: [id, version, move.status, move.at, move.petStatus ?? null, ...this.events.traceColumns()],
    });
    if (row === undefined) return O.none;
    this.events.committed();
    return O.some(versionedOrderOfRow(row));
  }

  async openOrderOf(petId: domain.PetId): Promise<O.Option<domain.OrderId>> {
    const [row] = await this.rows<{ id: string }>({
      name: 'petstore_orders_open_of_pet',
      text: `SELECT id FROM orders WHERE pet_id = $1 AND ${OPEN_ORDER_SQL}`,
      values: [petId],
    });
    return row === undefined ? O.none : O.some(Number(row.id) as domain.OrderId);
  }
}
