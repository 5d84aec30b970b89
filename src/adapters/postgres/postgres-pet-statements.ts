// The SQL of PostgresPetRepository's changes: the batch insert under the insert-order lock, the
// writes at a version, and the events each records in the change's own statement, with the
// trace context of the change's caller when tracing is on.
import { type EventRecording, type NamedStatement, type TraceSql, traceOfEvent, traceParameters } from './postgres-event-recording.js';

export const COLUMNS = 'id, name, category_id, status';
export const VERSIONED_COLUMNS = `${COLUMNS}, version`;

/** The trace context of each row, from its own columns (a batch's writes). */
const TRACE_COLUMNS: TraceSql = { traceparent: 'traceparent', tracestate: 'tracestate' };

/** An event's data: the pet as the interface returns it. */
const PET_DATA = "jsonb_build_object('id', id, 'name', name, 'categoryId', category_id, 'status', status)";

/** The advisory lock that orders inserts into pets (see PostgresPetRepository.create()): class "petI", keyed by the schema so that services on different schemas never wait for each other. */
export const INSERT_ORDER_LOCK = `${0x70657449}, hashtext(current_schema())`;

/** The writes of a batch under the rule `registered` that may be inserted: their categories exist, and are locked FOR KEY SHARE. */
const REGISTERED_WRITES = `known AS (
    SELECT id FROM categories WHERE id IN (SELECT category_id FROM writes WHERE registered) FOR KEY SHARE
  ), allowed AS (
    SELECT * FROM writes WHERE NOT registered OR category_id IN (SELECT id FROM known)
  ), `;

/** The variant of insertPetsSql a batch needs. */
export interface PetBatchShape {
  /** Each pet's `petstore.pet.created` event, in the same statement. */
  readonly recordEvents: boolean;
  /** A write of the batch is under the rule `registered`. */
  readonly registered?: boolean;
  /** Two arrays of trace context follow the others. */
  readonly traced?: boolean;
  /** A write of the batch completes an idempotency record (default true: the statement that serves every batch). */
  readonly keyed?: boolean;
}

/**
 * The insert of a batch of pets (see PostgresPetRepository.create()), some of them completing an idempotency record,
 * in one statement and so one transaction, under the insert-order lock. The writes come as
 * parallel arrays ($1 names, $2 categories, $3 statuses; $4 scopes, $5 keys, $6 tokens, NULL for
 * a write without a record); the answer is, per write that was inserted, its position `n`
 * (1-based) and its id. With `registered` (a batch with a write under that rule), $7 says
 * whether each write's category must exist, and the answer has, per write refused for its
 * category, its position and no id: such a write takes its category's row FOR KEY SHARE, held
 * to the commit, so a delete of the category (which locks the row FOR UPDATE before it looks
 * for pets) waits for the insert and then finds the pet, or comes first and the write finds no
 * category. A batch of the rule `open` alone runs the statement without any of it. A write whose record its claim no longer holds is not inserted, nor
 * are the later writes of a record already written in the batch: the record is locked first
 * (FOR UPDATE) so that no claim can take it over meanwhile, and is completed with the pet, as
 * JSON as the claim reads it, in the same transaction. A batch without any such write (`keyed`
 * false) runs the statement without any of it, so that it never reads idempotency_keys.
 * Ids are drawn after the lock is granted (`numbered` reads `ordered`), and the lock is held
 * to the commit. With `traced` (events recorded with their trace context), the two arrays
 * after the others are each write's `traceparent` and `tracestate` (NULL for a write that was
 * not traced), which its event keeps. Exported for its test.
 */
export const insertPetsSql = ({ recordEvents, registered = false, traced = false, keyed = true }: PetBatchShape): string => {
  const traceArrays = traced ? `, $${registered ? 8 : 7}::text[], $${registered ? 9 : 8}::text[]` : '';
  const candidates = registered ? 'allowed' : 'writes';
  const accepted = keyed
    ? `held AS (
    SELECT k.scope, k.key, k.token FROM idempotency_keys k
     WHERE (k.scope, k.key, k.token) IN (SELECT scope, key, token FROM writes) AND k.pet IS NULL
       FOR UPDATE
  ), accepted AS (
    -- Every write without a record; of the writes of one held record, the first alone.
    SELECT * FROM ${candidates} WHERE scope IS NULL
    UNION ALL
    (SELECT DISTINCT ON (w.scope, w.key) w.* FROM ${candidates} w JOIN held h USING (scope, key, token) ORDER BY w.scope, w.key, w.n)
  )`
    : `accepted AS (SELECT * FROM ${candidates})`;
  const completed = keyed
    ? `, completed AS (
    UPDATE idempotency_keys k
       SET pet = jsonb_build_object('id', w.id, 'name', w.name, 'categoryId', w.category_id, 'status', w.status)
      FROM numbered w
     WHERE w.scope IS NOT NULL AND k.scope = w.scope AND k.key = w.key AND k.token = w.token
  )`
    : '';
  return `WITH writes AS (
    SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[]${registered ? ', $7::bool[]' : ''}${traceArrays})
      WITH ORDINALITY AS w (name, category_id, status, scope, key, token${registered ? ', registered' : ''}${traced ? ', traceparent, tracestate' : ''}, n)
  ), ${registered ? REGISTERED_WRITES : ''}${accepted}, ordered AS (SELECT pg_advisory_xact_lock(${INSERT_ORDER_LOCK})),
  -- The identity column's sequence, looked up once per batch rather than once per row.
  id_sequence AS MATERIALIZED (SELECT pg_get_serial_sequence('pets', 'id')::regclass AS id_sequence),
  numbered AS (
    SELECT w.*, nextval(id_sequence) AS id
      FROM ordered, id_sequence, (SELECT * FROM accepted ORDER BY n) w
  ), inserted AS (
    INSERT INTO pets (id, name, category_id, status) OVERRIDING SYSTEM VALUE
    SELECT id, name, category_id, status FROM numbered ORDER BY id
  )${completed}${recordEvents ? `, recorded AS (${recordedEvents("'petstore.pet.created'", 'numbered', PET_DATA, traced ? TRACE_COLUMNS : undefined)})` : ''}
  SELECT n, id FROM numbered${registered ? '\n  UNION ALL SELECT n, NULL FROM writes WHERE n NOT IN (SELECT n FROM allowed)' : ''}`;
};

/**
 * The events of the pets of `rows` (a CTE with id, name, category_id, status), as the
 * INSERT of a CTE: written in the change's statement, so its transaction, in id order; with
 * `trace`, each keeps that trace context.
 */
export const recordedEvents = (type: string, rows: string, data = PET_DATA, trace?: TraceSql) => {
  const traced = traceOfEvent(trace);
  return `INSERT INTO events (id, type, pet_id, data, time${traced.columns})
     SELECT gen_random_uuid(), ${type}, id, ${data}, clock_timestamp()${traced.values} FROM ${rows} ORDER BY id`;
};

export const UPDATE_AT_VERSION = `UPDATE pets SET name = $3, category_id = $4, status = $5, version = version + 1
  WHERE id = $1 AND version = $2 RETURNING ${VERSIONED_COLUMNS}`;

/**
 * The same under the rule `registered`: a change to another category needs that category to
 * exist, and takes its row FOR KEY SHARE to the commit (see insertPetsSql for why).
 */
export const UPDATE_AT_VERSION_REGISTERED = `UPDATE pets SET name = $3, category_id = $4, status = $5, version = version + 1
  WHERE id = $1 AND version = $2
    AND (category_id = $4 OR EXISTS (SELECT 1 FROM categories WHERE id = $4 FOR KEY SHARE))
  RETURNING ${VERSIONED_COLUMNS}`;

/** Whether an update at a version (UPDATE_AT_VERSION_REGISTERED) stored nothing because it moved the pet to a category that does not exist. */
export const REFUSED_FOR_CATEGORY = `SELECT EXISTS (SELECT 1 FROM pets WHERE id = $1 AND version = $2 AND category_id <> $3)
  AND NOT EXISTS (SELECT 1 FROM categories WHERE id = $3) AS refused`;
export const DELETE_AT_VERSION = 'DELETE FROM pets WHERE id = $1 AND version = $2 RETURNING id';

/** A change and its event, in one statement; with `trace`, the event keeps that trace context. */
export const withEvent = (change: string, type: string, data?: string, trace?: TraceSql) =>
  `WITH changed AS (${change}), recorded AS (${recordedEvents(type, 'changed', data, trace)}) SELECT * FROM changed`;

/** The batch insert without events (PETSTORE_EVENTS=off). */
export const INSERT_PETS_SQL = insertPetsSql({ recordEvents: false });

/** The statements of PostgresPetRepository's changes. */
export type PetChangeStatements = Readonly<
  Record<'insertBatch' | 'insertRegisteredBatch' | 'updateAtVersion' | 'updateAtVersionRegistered' | 'deleteAtVersion', NamedStatement> &
    Record<'insertKeyedBatch' | 'insertKeyedRegisteredBatch', UnnamedStatement>
>;

/**
 * A statement sent without a name, so that PostgreSQL plans it for each batch with the tables
 * as they are then. A batch that completes idempotency records reads idempotency_keys, which
 * grows and shrinks with the keys; a plan kept by the connection, made while the statistics
 * said the table was small, would read all of it for every batch until the next ANALYZE.
 */
export interface UnnamedStatement {
  readonly text: string;
}

/**
 * The statements of the changes, recording their events as `events` says; traced, with the
 * trace context of each change's caller: the arrays of insertPetsSql for a batch, $6 and $7
 * for an update, $3 and $4 for a delete.
 */
export function petChangeStatements(events: EventRecording): PetChangeStatements {
  const [recordEvents, traced] = [events.kind !== 'none', events.kind === 'traced'];
  const recorded = (change: string, type: string, firstTrace: number, data?: string): string =>
    recordEvents ? withEvent(change, `'${type}'`, data, traced ? traceParameters(firstTrace) : undefined) : change;
  return {
    insertBatch: events.named('petstore_pets_insert_batch', insertPetsSql({ recordEvents, traced, keyed: false })),
    insertRegisteredBatch: events.named(
      'petstore_pets_insert_registered_batch',
      insertPetsSql({ recordEvents, registered: true, traced, keyed: false }),
    ),
    insertKeyedBatch: { text: insertPetsSql({ recordEvents, traced }) },
    insertKeyedRegisteredBatch: { text: insertPetsSql({ recordEvents, registered: true, traced }) },
    updateAtVersion: events.named('petstore_pets_update_at_version', recorded(UPDATE_AT_VERSION, 'petstore.pet.updated', 6)),
    updateAtVersionRegistered: events.named(
      'petstore_pets_update_at_version_registered',
      recorded(UPDATE_AT_VERSION_REGISTERED, 'petstore.pet.updated', 6),
    ),
    deleteAtVersion: events.named(
      'petstore_pets_delete_at_version',
      recorded(DELETE_AT_VERSION, 'petstore.pet.deleted', 3, "jsonb_build_object('id', id)"),
    ),
  };
}
