// OrderRepository on PostgreSQL, beside PostgresPetRepository in the same database. Any number
// of instances may share it: a placement reserves its pet with a conditional write on the pet's
// row, so of concurrent placements for one pet, from any instance, one wins; and the partial
// unique index on open orders holds even against a writer that skips this adapter.
import * as O from 'fp-ts/lib/Option.js';
import type { Pool, QueryConfig, QueryResultRow } from 'pg';
import type * as domain from '../../domain/index.js';
import { type WriteOutcome, writeBatches } from '../shared/write-batches.js';
import { OPEN_ORDER_SQL } from '../shared/order-tables.js';
import { ORDER_COLUMNS, type OrderRow, versionedOrderOfRow } from '../shared/order-rows.js';
import { type EventsNotice, eventsNoticeOf } from './events-notice.js';
import { queryRows } from './postgres-errors.js';
import { changeOrderSql, placeOrderSql, placeOrdersSql } from './postgres-order-statements.js';

type KeyedRow = OrderRow & { key_fingerprint: string };

/** A placement as a batch carries it. */
interface Placement {
  readonly petId: domain.PetId;
  readonly note?: domain.OrderNote | undefined;
  readonly at: Date;
}

/** PostgreSQL's unique_violation: here, a concurrent placement took the same idempotency key first. */
const isUniqueViolation = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === '23505';

/** Orders in PostgreSQL, through a pool opened by openPostgresPool. */
export class PostgresOrderRepository implements domain.OrderRepository {
  private readonly placeStatement: { readonly name: string; readonly text: string };
  private readonly changeStatement: { readonly name: string; readonly text: string };
  private readonly placeBatchStatement: { readonly name: string; readonly text: string };
  /** Placements without a key share one statement, and so one commit, with the others of their turn (writeBatches). */
  private readonly placeBatched = writeBatches((writes: readonly Placement[]) => this.placeBatch(writes));
  /** Tells the relays, after a change's commit, that it recorded events. */
  private readonly notice: EventsNotice | undefined;

  /** @param recordEvents whether every change records its events in the outbox (PostgresEventOutbox), in the change's statement. */
  constructor(
    private readonly pool: Pool,
    recordEvents = false,
  ) {
    this.notice = recordEvents ? eventsNoticeOf(pool) : undefined;
    const suffix = recordEvents ? '_recorded' : '';
    this.placeStatement = { name: `petstore_orders_place${suffix}`, text: placeOrderSql(recordEvents) };
    this.placeBatchStatement = { name: `petstore_orders_place_batch${suffix}`, text: placeOrdersSql(recordEvents) };
    this.changeStatement = { name: `petstore_orders_change${suffix}`, text: changeOrderSql(recordEvents) };
  }

  // Every query is a named prepared statement: parsed and planned once per connection.
  private rows<R extends QueryResultRow = OrderRow>(query: QueryConfig): Promise<R[]> {
    return queryRows<R>(this.pool, query);
  }

  async place({ petId, note, at, key }: domain.OrderPlacementRequest): Promise<domain.OrderPlacement> {
    if (key !== undefined) return this.placeKeyed({ petId, ...(note === undefined ? {} : { note }), at }, key);
    const placed = await this.placeBatched({ petId, note, at });
    return placed === undefined ? { kind: 'not-available' } : { kind: 'placed', order: placed };
  }

  /**
   * One batch's placements in one statement, so one commit. A batch that fails stores nothing
   * and fails each of its placements (none has a value of its own that the database could refuse).
   */
  private async placeBatch(writes: readonly Placement[]): Promise<readonly WriteOutcome<domain.VersionedOrder | undefined>[]> {
    const rows = await this.rows({
      ...this.placeBatchStatement,
      values: [writes.map((w) => w.petId), writes.map((w) => w.note ?? null), writes.map((w) => w.at)],
    });
    if (rows.length > 0) this.notice?.recorded();
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
        values: [petId, note ?? null, at, key.scope, key.key, key.fingerprint, key.expiresAt],
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
    this.notice?.recorded();
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
    const [row] = await this.rows({ ...this.changeStatement, values: [id, version, move.status, move.at, move.petStatus ?? null] });
    if (row === undefined) return O.none;
    this.notice?.recorded();
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
