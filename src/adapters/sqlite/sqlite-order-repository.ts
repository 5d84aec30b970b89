// OrderRepository on better-sqlite3, beside SqlitePetRepository in the same database: an order
// and its pet change in one transaction. Placements join the group commit of the creates
// (one transaction, and so one fsync, per event-loop turn); each is a savepoint of its own.
import * as O from 'fp-ts/lib/Option.js';
import type { Database, Statement } from 'better-sqlite3';
import type * as domain from '../../domain/index.js';
import { ORDERABLE_PET_STATUS, orderCreated, orderUpdated, petUpdated, RESERVED_PET_STATUS } from '../../domain/index.js';
import { OPEN_ORDER_SQL } from '../shared/order-tables.js';
import { ORDER_COLUMNS, type OrderRow, versionedOrderOfRow } from '../shared/order-rows.js';
import { type GroupCommit, groupCommit } from './group-commit.js';
import type { SqliteEventOutbox } from './sqlite-event-outbox.js';

type PetRow = { id: number; name: string; category_id: number; status: domain.PetStatus };
type KeyedRow = OrderRow & { key_fingerprint: string };

const petOfRow = (row: PetRow): domain.Pet => ({
  id: row.id as domain.PetId,
  name: row.name as domain.PetName,
  categoryId: row.category_id as domain.CategoryId,
  status: row.status,
});

const PET_RETURNING = 'RETURNING id, name, category_id, status';

/** Orders in a SQLite database opened by openSqliteDatabase (which migrates it). */
export class SqliteOrderRepository implements domain.OrderRepository {
  private readonly commit: GroupCommit;
  private readonly selectKeyed: Statement<[string, string, number], KeyedRow>;
  private readonly forgetKey: Statement<[string, string]>;
  private readonly reservePet: Statement<[number], PetRow>;
  private readonly movePet: Statement<[string, number], PetRow>;
  private readonly insertOrder: Statement<unknown[], OrderRow>;
  private readonly selectById: Statement<[number], OrderRow>;
  private readonly changeAtVersion: Statement<[string, number, number, number], OrderRow>;
  private readonly selectOpen: Statement<[number], number>;
  // One statement per combination of filters, each walking the index that serves it.
  private readonly pages: Readonly<Record<'all' | 'status' | 'pet' | 'both', Statement<unknown[], OrderRow>>>;
  private readonly changeRecorded: (id: domain.OrderId, version: domain.OrderVersion, move: domain.OrderMove) => OrderRow | undefined;

  /** @param outbox where every change records its event, in the change's transaction; without one, changes record none. */
  constructor(
    db: Database,
    private readonly outbox?: SqliteEventOutbox,
  ) {
    this.commit = groupCommit(db);
    this.selectKeyed = db.prepare(
      `SELECT key_fingerprint, ${ORDER_COLUMNS} FROM orders WHERE key_scope = ? AND key = ? AND key_expires_at > ?`,
    );
    this.forgetKey = db.prepare(
      'UPDATE orders SET key_scope = NULL, key = NULL, key_fingerprint = NULL, key_expires_at = NULL WHERE key_scope = ? AND key = ?',
    );
    this.reservePet = db.prepare(
      `UPDATE pets SET status = '${RESERVED_PET_STATUS}', version = version + 1 WHERE id = ? AND status = '${ORDERABLE_PET_STATUS}' ${PET_RETURNING}`,
    );
    this.movePet = db.prepare(`UPDATE pets SET status = ?, version = version + 1 WHERE id = ? ${PET_RETURNING}`);
    this.insertOrder = db.prepare(
      `INSERT INTO orders (pet_id, status, note, placed_at, updated_at, key_scope, key, key_fingerprint, key_expires_at)
       VALUES (?, 'placed', ?, ?, ?, ?, ?, ?, ?) RETURNING ${ORDER_COLUMNS}`,
    );
    this.selectById = db.prepare(`SELECT ${ORDER_COLUMNS} FROM orders WHERE id = ?`);
    this.changeAtVersion = db.prepare(
      `UPDATE orders SET status = ?, updated_at = ?, version = version + 1 WHERE id = ? AND version = ? RETURNING ${ORDER_COLUMNS}`,
    );
    this.selectOpen = db.prepare<[number], number>(`SELECT id FROM orders WHERE pet_id = ? AND ${OPEN_ORDER_SQL}`).pluck();
    const page = (filter: string) =>
      db.prepare<unknown[], OrderRow>(`SELECT ${ORDER_COLUMNS} FROM orders WHERE ${filter}id > ? ORDER BY id LIMIT ?`);
    this.pages = {
      all: page(''),
      status: page('status = ? AND '),
      pet: page('pet_id = ? AND '),
      both: page('pet_id = ? AND status = ? AND '),
    };
    this.changeRecorded = db.transaction((id: domain.OrderId, version: domain.OrderVersion, move: domain.OrderMove) => {
      const row = this.changeAtVersion.get(move.status, move.at.getTime(), id, version);
      if (row === undefined) return undefined;
      const order = versionedOrderOfRow(row).order;
      if (move.petStatus !== undefined) {
        const pet = this.movePet.get(move.petStatus, order.petId);
        if (pet !== undefined) this.outbox?.record(petUpdated(petOfRow(pet)));
      }
      this.outbox?.record(orderUpdated(order));
      return row;
    });
  }

  async place(request: domain.OrderPlacementRequest): Promise<domain.OrderPlacement> {
    // The group commit runs it later: its events keep the trace of the caller, now.
    const place = () => this.placeOne(request);
    return this.commit(this.outbox === undefined ? place : this.outbox.inCallersTrace(place));
  }

  // Inside the turn's transaction (groupCommit): a throw undoes this placement alone.
  private placeOne({ petId, note, at, key }: domain.OrderPlacementRequest): domain.OrderPlacement {
    if (key !== undefined) {
      const keyed = this.keyed(key, at);
      if (keyed !== undefined) return { kind: 'keyed', keyed };
      this.forgetKey.run(key.scope, key.key);
    }
    const pet = this.reservePet.get(petId);
    if (pet === undefined) return { kind: 'not-available' };
    this.outbox?.record(petUpdated(petOfRow(pet)));
    const row = this.insertOrder.get(
      petId,
      note ?? null,
      at.getTime(),
      at.getTime(),
      key?.scope ?? null,
      key?.key ?? null,
      key?.fingerprint ?? null,
      key?.expiresAt.getTime() ?? null,
    )!;
    const order = versionedOrderOfRow(row);
    this.outbox?.record(orderCreated(order.order));
    return { kind: 'placed', order };
  }

  private keyed(id: domain.IdempotencyRecordId, now: Date): domain.KeyedOrder | undefined {
    const row = this.selectKeyed.get(id.scope, id.key, now.getTime());
    return row === undefined ? undefined : { fingerprint: row.key_fingerprint, order: versionedOrderOfRow(row).order };
  }

  async findKeyed(id: domain.IdempotencyRecordId, now: Date): Promise<O.Option<domain.KeyedOrder>> {
    return O.fromNullable(this.keyed(id, now));
  }

  async findVersioned(id: domain.OrderId): Promise<O.Option<domain.VersionedOrder>> {
    const row = this.selectById.get(id);
    return row === undefined ? O.none : O.some(versionedOrderOfRow(row));
  }

  async list({ limit, status, petId, afterId = 0 as domain.OrderId }: domain.OrderListQuery): Promise<readonly domain.Order[]> {
    const rows =
      petId === undefined
        ? status === undefined
          ? this.pages.all.all(afterId, limit)
          : this.pages.status.all(status, afterId, limit)
        : status === undefined
          ? this.pages.pet.all(petId, afterId, limit)
          : this.pages.both.all(petId, status, afterId, limit);
    return rows.map((row) => versionedOrderOfRow(row).order);
  }

  async change(id: domain.OrderId, version: domain.OrderVersion, move: domain.OrderMove): Promise<O.Option<domain.VersionedOrder>> {
    const row = this.changeRecorded(id, version, move);
    return row === undefined ? O.none : O.some(versionedOrderOfRow(row));
  }

  async openOrderOf(petId: domain.PetId): Promise<O.Option<domain.OrderId>> {
    const id = this.selectOpen.get(petId);
    return id === undefined ? O.none : O.some(id as domain.OrderId);
  }
}
