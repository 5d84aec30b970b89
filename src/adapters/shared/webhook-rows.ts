// The webhook_endpoints and webhook_deliveries tables as the SQL adapters read them: the same
// columns, with ids and times in the driver's own types (SQLite: numbers; PostgreSQL: int8 as
// text, timestamptz as Date).
import type {
  DueWebhookDelivery,
  EventType,
  WebhookAttempt,
  WebhookDelivery,
  WebhookDeliveryId,
  WebhookDeliveryStatus,
  WebhookEndpoint,
  WebhookEndpointId,
  WebhookUrl,
} from '../../domain/index.js';

/** How a driver's ids and times become numbers and Dates: functions, each also handed on alone. */
export interface RowConversions<Id, Time> {
  readonly id: (value: Id, column: string) => number;
  readonly time: (value: Time) => Date;
}

/** A row of webhook_endpoints, without the secret. */
export interface WebhookEndpointRow<Id, Time> {
  id: Id;
  url: string;
  event_types: string;
  created_at: Time;
  disabled_at: Time | null;
}

/** The columns of {@link WebhookEndpointRow}: never the secret. */
export const WEBHOOK_ENDPOINT_COLUMNS = 'id, url, event_types, created_at, disabled_at';

/** Event types as a column keeps them: comma-separated, '' for every type. */
export const eventTypesColumn = (types: readonly EventType[]): string => types.join(',');

/** The record of an endpoint row. */
export const webhookEndpointOf = <Id, Time>(row: WebhookEndpointRow<Id, Time>, as: RowConversions<Id, Time>): WebhookEndpoint => ({
  id: as.id(row.id, 'webhook_endpoints.id') as WebhookEndpointId,
  url: row.url as WebhookUrl,
  eventTypes: row.event_types === '' ? [] : (row.event_types.split(',') as EventType[]),
  createdAt: as.time(row.created_at),
  disabledAt: row.disabled_at === null ? null : as.time(row.disabled_at),
});

/** A row of webhook_deliveries, without the body. */
export interface WebhookDeliveryRow<Id, Time> {
  id: Id;
  endpoint_id: Id;
  event_id: string;
  event_type: string;
  attempts: number;
  status: string;
  next_attempt_at: Time | null;
  last_status: number | null;
  last_error: string | null;
  created_at: Time;
  last_attempt_at: Time | null;
}

/** The columns of {@link WebhookDeliveryRow}. */
export const WEBHOOK_DELIVERY_COLUMNS =
  'id, endpoint_id, event_id, event_type, attempts, status, next_attempt_at, last_status, last_error, created_at, last_attempt_at';

/**
 * The statement that deletes finished deliveries (delivered or failed) whose last attempt, or
 * creation when they had none, was before the time `before` stands for: `?`-style or `$1`.
 * Deliveries are made in id order, so only ids below the first delivery made since `before`
 * are looked at: the walk is as long as what there is to prune, not the whole table.
 */
export const pruneFinishedDeliveries = (before: string): string =>
  `DELETE FROM webhook_deliveries
    WHERE id < coalesce((SELECT id FROM webhook_deliveries WHERE created_at >= ${before} ORDER BY id LIMIT 1),
                        (SELECT max(id) + 1 FROM webhook_deliveries))
      AND status <> 'pending' AND coalesce(last_attempt_at, created_at) < ${before}`;

/** The record of a delivery row. */
export const webhookDeliveryOf = <Id, Time>(row: WebhookDeliveryRow<Id, Time>, as: RowConversions<Id, Time>): WebhookDelivery => ({
  id: as.id(row.id, 'webhook_deliveries.id') as WebhookDeliveryId,
  endpointId: as.id(row.endpoint_id, 'webhook_deliveries.endpoint_id') as WebhookEndpointId,
  eventId: row.event_id,
  eventType: row.event_type as EventType,
  attempts: row.attempts,
  status: row.status as WebhookDeliveryStatus,
  nextAttemptAt: row.next_attempt_at === null ? null : as.time(row.next_attempt_at),
  lastStatus: row.last_status,
  lastError: row.last_error,
  createdAt: as.time(row.created_at),
  lastAttemptAt: row.last_attempt_at === null ? null : as.time(row.last_attempt_at),
});

/** A claimed delivery with what sending it needs, as the claim's query answers it. */
export interface DueWebhookDeliveryRow<Id> {
  id: Id;
  endpoint_id: Id;
  event_id: string;
  event_type: string;
  attempts: number;
  body: string;
  url: string;
  secret: string;
}

/** A claimed delivery of a row, claimed until `leasedUntil`. */
export const dueWebhookDeliveryOf = <Id>(
  row: DueWebhookDeliveryRow<Id>,
  id: (value: Id, column: string) => number,
  leasedUntil: Date,
): DueWebhookDelivery => ({
  claim: { deliveryId: id(row.id, 'webhook_deliveries.id') as WebhookDeliveryId, leasedUntil },
  endpointId: id(row.endpoint_id, 'webhook_deliveries.endpoint_id') as WebhookEndpointId,
  eventId: row.event_id,
  eventType: row.event_type as EventType,
  attempts: row.attempts,
  url: row.url as WebhookUrl,
  secret: row.secret,
  body: row.body,
});

/** The columns recordAttempt writes, from an attempt: status, next_attempt_at, last_status, last_error, last_attempt_at. */
export const attemptColumns = <Time>(
  attempt: WebhookAttempt,
  time: (date: Date) => Time,
): [status: string, nextAttemptAt: Time | null, lastStatus: number | null, lastError: string | null, lastAttemptAt: Time] => [
  attempt.next.status,
  attempt.next.status === 'pending' ? time(attempt.next.nextAttemptAt) : null,
  attempt.httpStatus,
  attempt.error,
  time(attempt.at),
];

/**
 * The common table expressions `under_way`, `candidates` and `ranked` (no WITH): ranked holds
 * the pending deliveries due at `now` (a parameter's placeholder) to each active endpoint, at
 * most a bound of each (`candidates`, a dialect's own query of them), with its `place` among
 * its endpoint's, soonest first, and its endpoint's `claims` under way (claimed by any
 * dispatcher and neither recorded nor run out). One whose place is at most the bound less its
 * claims may be claimed: an endpoint then has at most that bound under way.
 */
export const rankedDueDeliveries = (now: string, candidates: string): string =>
  `under_way AS (
     SELECT endpoint_id, count(*) AS claims FROM webhook_deliveries
      WHERE status = 'pending' AND leased_until > ${now} GROUP BY endpoint_id
   ), candidates AS (${candidates}), ranked AS (
     SELECT c.id, row_number() OVER (PARTITION BY c.endpoint_id ORDER BY c.next_attempt_at, c.id) AS place, coalesce(u.claims, 0) AS claims
       FROM candidates c LEFT JOIN under_way u ON u.endpoint_id = c.endpoint_id
   )`;

/**
 * The ids of the front of one endpoint's due backlog (`e` is the endpoint): its pending deliveries due at
 * `now`, soonest first, at most `bound` of them, read from the front of its due index and no
 * further, so that a claim costs the same whatever an endpoint's backlog.
 */
export const dueFrontOf = (now: string, bound: string): string =>
  `SELECT f.id FROM webhook_deliveries f
    WHERE f.endpoint_id = e.id AND f.status = 'pending' AND f.next_attempt_at <= ${now}
    ORDER BY f.next_attempt_at, f.id LIMIT ${bound}`;

/** What a delivery's last_error says once its endpoint is disabled. */
export const DISABLED_ENDPOINT_ERROR = 'the endpoint is disabled';
