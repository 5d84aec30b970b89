// Outbox rows as the SQL adapters read them back: one place that turns a stored row into the
// domain's PetEvent, whatever the driver's types.
import type { PetEvent, PetEventData, PetEventType, PetId } from '../../domain/index.js';
import { traceContextOfColumns } from './trace-context.js';

/** The name of the relay's one lease row. */
export const RELAY_LEASE = 'relay';

/** A stored event's columns, in the driver's own types. */
export interface OutboxRow {
  readonly sequence: number | string;
  readonly id: string;
  readonly type: string;
  readonly pet_id: number | string;
  readonly data: string | PetEventData;
  readonly time: number | Date;
  /** The W3C trace context of the change, when it was traced (SQLite migration 12, PostgreSQL 11). */
  readonly traceparent?: string | null;
  readonly tracestate?: string | null;
}

/** The stored columns of an event, in the order every SELECT of the outbox names them. */
export const OUTBOX_COLUMNS = 'sequence, id, type, pet_id, data, time, traceparent, tracestate';

/** The event a row holds. */
export function eventOfRow(row: OutboxRow): PetEvent {
  const event: PetEvent = {
    id: row.id,
    sequence: Number(row.sequence),
    type: row.type as PetEventType,
    petId: Number(row.pet_id) as PetId,
    data: typeof row.data === 'string' ? (JSON.parse(row.data) as PetEventData) : row.data,
    time: row.time instanceof Date ? row.time : new Date(row.time),
  };
  const traceContext = traceContextOfColumns(row.traceparent, row.tracestate);
  return traceContext === undefined ? event : { ...event, traceContext };
}
