// PetRepository on PostgreSQL through a pg pool. Any number of server instances may share one
// database: ids come from the database's identity column, never from the process.
import * as O from 'fp-ts/lib/Option.js';
import type { Pool, QueryConfig, QueryResultRow } from 'pg';
import type * as domain from '../../domain/index.js';
import { StorageUnavailableError, UnknownCategoryError } from '../../domain/index.js';
import { categoryPageSql, categoryStatusPageSql } from '../shared/category-pages.js';
import { type PetWrite, storedPet } from '../shared/pet-write.js';
import { type WriteOutcome, writeBatches } from '../shared/write-batches.js';
import type { CurrentTraceContext } from '../shared/trace-context.js';
import { queryRows } from './postgres-errors.js';
import { type PetRow, safeIntegerFromInt8, toPet, toVersionedPet, type VersionedPetRow } from './postgres-pet-rows.js';
import { EventRecording } from './postgres-event-recording.js';
import {
  COLUMNS,
  type PetChangeStatements,
  petChangeStatements,
  REFUSED_FOR_CATEGORY,
  VERSIONED_COLUMNS,
} from './postgres-pet-statements.js';

/** Pets in PostgreSQL, through a pool opened by {@link openPostgresPool}; any number of instances may share the database. */
export class PostgresPetRepository implements domain.PetRepository {
  private readonly writeBatched = writeBatches((writes: readonly PetWrite[]) => this.writeBatch(writes));

  private readonly statements: PetChangeStatements;
  private readonly pool: Pool;
  private readonly events: EventRecording;

  /**
   * @param recordEvents whether every change records its event in the outbox (PostgresEventOutbox), in the change's statement.
   * @param currentTrace with tracing on, the trace context of the work under way, which each event keeps (EventRecording).
   */
  constructor(pool: Pool, recordEvents = false, currentTrace?: CurrentTraceContext) {
    this.pool = pool;
    this.events = new EventRecording(pool, recordEvents, currentTrace);
    this.statements = petChangeStatements(this.events);
  }

  // Every query but a keyed batch's is a named prepared statement: parsed and planned once per connection.
  private rows<R extends QueryResultRow = PetRow>(query: QueryConfig): Promise<R[]> {
    return queryRows<R>(this.pool, query);
  }

  /**
   * Creates share one statement, and so one commit and one WAL flush, with the other creates
   * of the same event-loop turn (writeBatches). Keyset paging (id > last) needs ids to become
   * visible in id order. Across connections a sequence hands out 7 before 8 but may commit 8
   * first, and a reader paging past 8 would never see 7. A transaction-scoped advisory lock,
   * taken before the ids are drawn and held to the commit, makes batches draw and commit in
   * the same order; a batch's pets become visible together.
   */
  async create(draft: domain.PetDraft, rule: domain.CategoryRule = 'open'): Promise<domain.Pet> {
    return storedPet(await this.writeBatched({ draft, rule, trace: this.events.trace() }));
  }

  /** The same batches: the pet and the record's completion commit together, or neither. */
  async createCompleting(
    draft: domain.PetDraft,
    hold: domain.IdempotencyHold,
    rule: domain.CategoryRule = 'open',
  ): Promise<O.Option<domain.Pet>> {
    return O.fromNullable(await this.writeBatched({ draft, hold, rule, trace: this.events.trace() }));
  }

  /**
   * One statement for the whole batch. If it fails for a reason of its own (a value the
   * database refuses, say), no pet of it is stored, and each write is tried again alone, so
   * that one bad write fails alone; an outage fails them all at once.
   */
  private async writeBatch(writes: readonly PetWrite[]): Promise<readonly WriteOutcome<domain.Pet | undefined>[]> {
    try {
      const outcomes = await this.insertPets(writes);
      this.events.committed();
      return outcomes;
    } catch (err) {
      if (writes.length === 1 || err instanceof StorageUnavailableError) throw err;
      const outcomes: WriteOutcome<domain.Pet | undefined>[] = [];
      for (const write of writes) {
        try {
          outcomes.push(...(await this.insertPets([write])));
        } catch (error) {
          outcomes.push({ ok: false, error });
        }
      }
      this.events.committed();
      return outcomes;
    }
  }

  private async insertPets(writes: readonly PetWrite[]): Promise<readonly WriteOutcome<domain.Pet | undefined>[]> {
    const registered = writes.some((w) => w.rule === 'registered');
    const { insertBatch, insertRegisteredBatch, insertKeyedBatch, insertKeyedRegisteredBatch } = this.statements;
    const statement = writes.some((w) => w.hold !== undefined)
      ? registered
        ? insertKeyedRegisteredBatch
        : insertKeyedBatch
      : registered
        ? insertRegisteredBatch
        : insertBatch;
    const rows = await queryRows<{ n: string; id: string | null }>(this.pool, {
      ...statement,
      values: [
        writes.map((w) => w.draft.name),
        writes.map((w) => w.draft.categoryId),
        writes.map((w) => w.draft.status),
        writes.map((w) => w.hold?.scope ?? null),
        writes.map((w) => w.hold?.key ?? null),
        writes.map((w) => w.hold?.token ?? null),
        ...(registered ? [writes.map((w) => w.rule === 'registered')] : []),
        ...this.events.traceArrays(writes.map((w) => w.trace)),
      ],
    });
    const idAt = new Map(rows.map((row) => [Number(row.n), row.id]));
    return writes.map((write, i) => {
      const id = idAt.get(i + 1);
      // No row: the write's hold no longer held its record, and nothing was inserted for it.
      if (id === undefined) return { ok: true, output: undefined };
      if (id === null) return { ok: false, error: new UnknownCategoryError(write.draft.categoryId) };
      const { name, categoryId, status } = write.draft;
      return { ok: true, output: { id: safeIntegerFromInt8(id, 'pets.id') as domain.PetId, name, categoryId, status } };
    });
  }

  async findById(id: domain.PetId): Promise<O.Option<domain.Pet>> {
    const [row] = await this.rows({
      name: 'petstore_pets_by_id',
      text: `SELECT ${COLUMNS} FROM pets WHERE id = $1`,
      values: [id],
    });
    return row === undefined ? O.none : O.some(toPet(row));
  }

  // Keyset paging: `id > $n` walks the primary key or the (status, id) index from the cursor on.
  async list({ limit, status, categoryId, afterId = 0 as domain.PetId }: domain.PetListQuery): Promise<readonly domain.Pet[]> {
    if (categoryId !== undefined) return (await this.listCategory(categoryId, status, afterId, limit)).map(toPet);
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

  // A category's pets: the (category_id, status, id) index, read from the cursor on (category-pages.ts).
  private listCategory(categoryId: domain.CategoryId, status: domain.PetStatus | undefined, afterId: domain.PetId, limit: number) {
    const placeholders = { category: '$1', after: '$2', limit: '$3' };
    return status === undefined
      ? this.rows({
          name: 'petstore_pets_page_by_category',
          text: categoryPageSql(COLUMNS, placeholders),
          values: [categoryId, afterId, limit],
        })
      : this.rows({
          name: 'petstore_pets_page_by_category_status',
          text: categoryStatusPageSql(COLUMNS, placeholders, '$4'),
          values: [categoryId, afterId, limit, status],
        });
  }

  async findVersioned(id: domain.PetId): Promise<O.Option<domain.VersionedPet>> {
    const [row] = await this.rows<VersionedPetRow>({
      name: 'petstore_pets_versioned_by_id',
      text: `SELECT ${VERSIONED_COLUMNS} FROM pets WHERE id = $1`,
      values: [id],
    });
    return row === undefined ? O.none : O.some(toVersionedPet(row));
  }

  // Compare-and-set in one statement: the row is locked while the version is compared, so of
  // two instances writing the same version, the second finds the first's and writes nothing.
  async update(
    id: domain.PetId,
    version: domain.PetVersion,
    draft: domain.PetDraft,
    rule: domain.CategoryRule = 'open',
  ): Promise<O.Option<domain.VersionedPet>> {
    const [row] = await this.rows<VersionedPetRow>({
      ...(rule === 'registered' ? this.statements.updateAtVersionRegistered : this.statements.updateAtVersion),
      values: [id, version, draft.name, draft.categoryId, draft.status, ...this.events.traceColumns()],
    });
    if (row !== undefined) {
      this.events.committed();
      return O.some(toVersionedPet(row));
    }
    if (rule === 'registered') {
      const [check] = await this.rows<{ refused: boolean }>({
        name: 'petstore_pets_refused_for_category',
        text: REFUSED_FOR_CATEGORY,
        values: [id, version, draft.categoryId],
      });
      if (check?.refused === true) throw new UnknownCategoryError(draft.categoryId);
    }
    return O.none;
  }

  /** A hard delete: the identity column's sequence never hands an id out twice. */
  async remove(id: domain.PetId, version: domain.PetVersion): Promise<boolean> {
    const rows = await this.rows<{ id: string }>({
      ...this.statements.deleteAtVersion,
      values: [id, version, ...this.events.traceColumns()],
    });
    if (rows.length !== 1) return false;
    this.events.committed();
    return true;
  }
}
