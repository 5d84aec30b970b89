// The SQL of PostgresOrderRepository's changes: a placement and a move of an order, each one
// statement, and so one transaction, with the pet it changes and the events of both (with the
// trace context of the change's caller when tracing is on).
import { ORDERABLE_PET_STATUS, RESERVED_PET_STATUS } from '../../domain/index.js';
import { ORDER_COLUMNS } from '../shared/order-rows.js';
import { type EventRecordingKind, traceOfEvent, type TraceSql, traceParameters } from './postgres-event-recording.js';

const PET_JSON = "jsonb_build_object('id', id, 'name', name, 'categoryId', category_id, 'status', status)";
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const ORDER_JSON = `jsonb_build_object('id', id, 'petId', pet_id, 'status', status, 'placedAt', ${iso('placed_at')}, 'updatedAt', ${iso('updated_at')})
  || CASE WHEN note IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('note', note) END`;

/**
 * The events of a change, as the INSERT of a CTE: for each pet, its own (from `pets`, a CTE with
 * its columns) before its order's (from `orders`), so that an order is seen after what it did to
 * its pet. When `traced`, they keep the trace context `trace`: parameters, or the columns of a
 * write `joined` on the pet.
 */
const recorded = (events: EventRecordingKind, trace: TraceSql, pets: string, orders: string, orderType: string, joined = '') => {
  if (events === 'none') return '';
  const kept = traceOfEvent(events === 'traced' ? trace : undefined);
  return `, recorded AS (
    INSERT INTO events (id, type, pet_id, data, time${kept.columns})
    SELECT gen_random_uuid(), e.type, e.pet_id, e.data, clock_timestamp()${kept.values} FROM (
      SELECT 1 AS n, 'petstore.pet.updated' AS type, id AS pet_id, ${PET_JSON} AS data FROM ${pets}
      UNION ALL SELECT 2, '${orderType}', pet_id, ${ORDER_JSON} FROM ${orders}
    ) e${events === 'traced' ? joined : ''} ORDER BY e.pet_id, e.n
  )`;
};

/**
 * A placement: the pet reserved only if it is available ($1; the row is locked, so of
 * concurrent placements one reserves it and the others find it pending), and the order stored
 * with it ($2 note, $3 time, $4 to $7 the key, NULL without one; $8 and $9 the trace context
 * when `traced`). The answer is the order, or no row when the pet was not available.
 */
export const placeOrderSql = (events: EventRecordingKind) => `WITH reserved AS (
    UPDATE pets SET status = '${RESERVED_PET_STATUS}', version = version + 1
     WHERE id = $1 AND status = '${ORDERABLE_PET_STATUS}' RETURNING id, name, category_id, status
  ), placed AS (
    INSERT INTO orders (pet_id, status, note, placed_at, updated_at, key_scope, key, key_fingerprint, key_expires_at)
    SELECT id, 'placed', $2, $3, $3, $4, $5, $6, $7 FROM reserved RETURNING ${ORDER_COLUMNS}
  )${recorded(events, traceParameters(8), 'reserved', 'placed', 'petstore.order.created')}
  SELECT ${ORDER_COLUMNS} FROM placed`;

/** The trace context of a batch's write, joined on its pet. */
const WRITE_TRACE: TraceSql = { traceparent: 'firsts.traceparent', tracestate: 'firsts.tracestate' };

/**
 * Placements without an idempotency key, a batch in one statement (PostgresOrderRepository.place):
 * $1 the pets, $2 the notes, $3 the times, and when `traced` $4 and $5 the trace contexts, as
 * parallel arrays. Of the writes for one pet, the first alone may place it. The pets are locked
 * in id order, so that two batches (of two instances) never wait for each other both ways; a pet
 * found no longer available once its lock is granted is left out, as in a single placement. The
 * answer is one order per pet placed.
 */
export const placeOrdersSql = (events: EventRecordingKind) => {
  const traced = events === 'traced' ? ', traceparent, tracestate' : '';
  return `WITH firsts AS (
    SELECT DISTINCT ON (pet_id) pet_id, note, at${traced}
      FROM unnest($1::bigint[], $2::text[], $3::timestamptz[]${traced === '' ? '' : ', $4::text[], $5::text[]'})
           WITH ORDINALITY AS w (pet_id, note, at${traced}, n)
     ORDER BY pet_id, n
  ), locked AS (
    SELECT id FROM pets WHERE id IN (SELECT pet_id FROM firsts) AND status = '${ORDERABLE_PET_STATUS}' ORDER BY id FOR UPDATE
  ), reserved AS (
    UPDATE pets SET status = '${RESERVED_PET_STATUS}', version = version + 1
     WHERE id IN (SELECT id FROM locked) AND status = '${ORDERABLE_PET_STATUS}' RETURNING id, name, category_id, status
  ), placed AS (
    INSERT INTO orders (pet_id, status, note, placed_at, updated_at)
    SELECT firsts.pet_id, 'placed', firsts.note, firsts.at, firsts.at FROM reserved JOIN firsts ON firsts.pet_id = reserved.id
     ORDER BY firsts.pet_id RETURNING ${ORDER_COLUMNS}
  )${recorded(events, WRITE_TRACE, 'reserved', 'placed', 'petstore.order.created', ' JOIN firsts ON firsts.pet_id = e.pet_id')}
  SELECT ${ORDER_COLUMNS} FROM placed`;
};

/**
 * A move of order $1 at version $2 to status $3 at $4, and of its pet to status $5 when it is
 * not NULL ($6 and $7 the trace context when `traced`). The answer is the order, or no row
 * when its version is another.
 */
export const changeOrderSql = (events: EventRecordingKind) => `WITH changed AS (
    UPDATE orders SET status = $3, updated_at = $4, version = version + 1
     WHERE id = $1 AND version = $2 RETURNING ${ORDER_COLUMNS}
  ), moved AS (
    UPDATE pets SET status = $5, version = pets.version + 1 FROM changed
     WHERE pets.id = changed.pet_id AND $5::text IS NOT NULL
     RETURNING pets.id, pets.name, pets.category_id, pets.status
  )${recorded(events, traceParameters(6), 'moved', 'changed', 'petstore.order.updated')}
  SELECT ${ORDER_COLUMNS} FROM changed`;
