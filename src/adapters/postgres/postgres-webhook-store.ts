// WebhookStore on PostgreSQL (tables webhook_endpoints and webhook_deliveries), shared by
// every instance on the database: a claim locks its rows with FOR UPDATE SKIP LOCKED, so two
// dispatchers never claim the same attempt, nor wait for each other.
import * as O from 'fp-ts/lib/Option.js';
import type { Pool, QueryConfig, QueryResultRow } from 'pg';
import { webhookDeliveriesOf } from '../../domain/index.js';
import type * as domain from '../../domain/index.js';
import * as shared from '../shared/webhook-rows.js';
import { queryRows } from './postgres-errors.js';
import { safeIntegerFromInt8 } from './postgres-pet-rows.js';

const AS: shared.RowConversions<string, Date> = { id: safeIntegerFromInt8, time: (time) => time }; // int8 as pg returns it
const endpointOf = (row: shared.WebhookEndpointRow<string, Date>): domain.WebhookEndpoint => shared.webhookEndpointOf(row, AS);

const ACTIVE_PENDING = `status = 'pending' AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE disabled_at IS NULL)`;

// Each active endpoint's due front, as PostgreSQL takes it best: a LATERAL query per endpoint
// (a correlated IN would be run once per delivery).
const POSTGRES_DUE_CANDIDATES = `SELECT d.id, d.endpoint_id, d.next_attempt_at
   FROM webhook_endpoints e CROSS JOIN LATERAL (${shared.dueFrontOf('$1', '$4')}) f JOIN webhook_deliveries d ON d.id = f.id
  WHERE e.disabled_at IS NULL`;

/** Webhook endpoints and deliveries in the database of a pool opened by openPostgresPool (which migrates it). */
export class PostgresWebhookStore implements domain.WebhookStore {
  constructor(private readonly pool: Pool) {}

  private rows<R extends QueryResultRow>(query: QueryConfig): Promise<R[]> {
    return queryRows<R>(this.pool, query);
  }

  async add(endpoint: domain.NewWebhookEndpoint): Promise<domain.WebhookEndpoint> {
    const [row] = await this.rows<shared.WebhookEndpointRow<string, Date>>({
      text: `INSERT INTO webhook_endpoints (url, event_types, secret, created_at) VALUES ($1, $2, $3, $4) RETURNING ${shared.WEBHOOK_ENDPOINT_COLUMNS}`,
      values: [endpoint.url, shared.eventTypesColumn(endpoint.eventTypes), endpoint.secret, endpoint.createdAt],
    });
    if (row === undefined) throw new Error('INSERT … RETURNING gave no row');
    return endpointOf(row);
  }

  async list(): Promise<readonly domain.WebhookEndpoint[]> {
    return (
      await this.rows<shared.WebhookEndpointRow<string, Date>>({
        text: `SELECT ${shared.WEBHOOK_ENDPOINT_COLUMNS} FROM webhook_endpoints ORDER BY id`,
      })
    ).map(endpointOf);
  }

  async remove(id: domain.WebhookEndpointId): Promise<boolean> {
    // The deliveries go with it: ON DELETE CASCADE.
    return (await this.rows({ text: 'DELETE FROM webhook_endpoints WHERE id = $1 RETURNING id', values: [id] })).length > 0;
  }

  async disable(id: domain.WebhookEndpointId, at: Date): Promise<O.Option<domain.WebhookEndpoint>> {
    // One statement: the endpoint and its pending deliveries change together.
    const [row] = await this.rows<shared.WebhookEndpointRow<string, Date>>({
      text: `WITH disabled AS (
               UPDATE webhook_endpoints SET disabled_at = coalesce(disabled_at, $2) WHERE id = $1 RETURNING ${shared.WEBHOOK_ENDPOINT_COLUMNS}
             ), failed AS (
               UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, leased_until = NULL, last_error = $3
                WHERE endpoint_id IN (SELECT id FROM disabled) AND status = 'pending'
             )
             SELECT * FROM disabled`,
      values: [id, at, shared.DISABLED_ENDPOINT_ERROR],
    });
    return row === undefined ? O.none : O.some(endpointOf(row));
  }

  async enable(id: domain.WebhookEndpointId): Promise<O.Option<domain.WebhookEndpoint>> {
    const [row] = await this.rows<shared.WebhookEndpointRow<string, Date>>({
      text: `UPDATE webhook_endpoints SET disabled_at = NULL WHERE id = $1 RETURNING ${shared.WEBHOOK_ENDPOINT_COLUMNS}`,
      values: [id],
    });
    return row === undefined ? O.none : O.some(endpointOf(row));
  }

  async enqueue(events: readonly domain.WebhookEvent[], at: Date): Promise<void> {
    if (events.length === 0) return;
    const pairs = webhookDeliveriesOf(await this.list(), events);
    if (pairs.length === 0) return;
    // One statement whatever the number of deliveries: one array parameter per column, in the events' order.
    await this.rows({
      text: `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, body, status, next_attempt_at, created_at)
             SELECT endpoint_id, event_id, event_type, body, 'pending', $5, $5
               FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS d (endpoint_id, event_id, event_type, body, n)
              ORDER BY n
             ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
      values: [
        pairs.map(({ endpoint }) => endpoint.id),
        pairs.map(({ event }) => event.id),
        pairs.map(({ event }) => event.type),
        pairs.map(({ event }) => event.body),
        at,
      ],
    });
  }

  async claimDue(now: Date, limit: number, leaseMs: number, perEndpoint: number): Promise<readonly domain.DueWebhookDelivery[]> {
    const leasedUntil = new Date(now.getTime() + leaseMs);
    // The places are those of the statement's snapshot; a row another claim took since is
    // locked (skipped) or no longer due when locked (re-checked), so the bound holds.
    const rows = await this.rows<shared.DueWebhookDeliveryRow<string> & { next: Date }>({
      text: `WITH ${shared.rankedDueDeliveries('$1', POSTGRES_DUE_CANDIDATES)}, due AS (
               SELECT d.id FROM webhook_deliveries d JOIN ranked USING (id)
                WHERE ranked.place <= $4 - ranked.claims AND d.status = 'pending' AND d.next_attempt_at <= $1
                ORDER BY d.next_attempt_at, d.id LIMIT $3
                  FOR UPDATE OF d SKIP LOCKED
             ), claimed AS (
               SELECT d.id, d.next_attempt_at AS next FROM webhook_deliveries d JOIN due USING (id)
             )
             UPDATE webhook_deliveries d SET next_attempt_at = $2, leased_until = $2
               FROM claimed, webhook_endpoints e
              WHERE d.id = claimed.id AND e.id = d.endpoint_id
             RETURNING d.id, d.endpoint_id, d.event_id, d.event_type, d.attempts, d.body, e.url, e.secret, claimed.next`,
      values: [now, leasedUntil, limit, perEndpoint],
    });
    // RETURNING keeps no order: soonest first, as claimed.
    rows.sort((a, b) => a.next.getTime() - b.next.getTime() || Number(a.id) - Number(b.id));
    return rows.map((row) => shared.dueWebhookDeliveryOf(row, AS.id, leasedUntil));
  }

  async recordAttempt(claim: domain.WebhookDeliveryClaim, attempt: domain.WebhookAttempt): Promise<boolean> {
    const recorded = await this.rows({
      text: `UPDATE webhook_deliveries
                SET status = $1, next_attempt_at = $2, last_status = $3, last_error = $4, last_attempt_at = $5, attempts = attempts + 1,
                    leased_until = NULL
              WHERE id = $6 AND next_attempt_at = $7 AND ${ACTIVE_PENDING}
             RETURNING id`,
      values: [...shared.attemptColumns(attempt, (date) => date), claim.deliveryId, claim.leasedUntil],
    });
    return recorded.length > 0;
  }

  async nextDueAt(): Promise<Date | undefined> {
    const [row] = await this.rows<{ next: Date | null }>({
      text: `SELECT min(next_attempt_at) AS next FROM webhook_deliveries WHERE ${ACTIVE_PENDING}`,
    });
    return row?.next ?? undefined;
  }

  async backlog(): Promise<domain.Backlog> {
    const [row] = await this.rows<{ count: string; oldest: Date | null }>({
      text: `SELECT count(*) AS count, min(created_at) AS oldest FROM webhook_deliveries WHERE ${ACTIVE_PENDING}`,
    });
    return { count: Number(row!.count), oldest: row!.oldest ?? undefined };
  }

  async deliveries(endpointId: domain.WebhookEndpointId, limit: number): Promise<readonly domain.WebhookDelivery[]> {
    const rows = await this.rows<shared.WebhookDeliveryRow<string, Date>>({
      text: `SELECT ${shared.WEBHOOK_DELIVERY_COLUMNS} FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id DESC LIMIT $2`,
      values: [endpointId, limit],
    });
    return rows.map((row) => shared.webhookDeliveryOf(row, AS));
  }

  async redeliver(eventId: string, at: Date): Promise<number> {
    const rows = await this.rows({
      text: `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = $1
              WHERE event_id = $2 AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE disabled_at IS NULL)
             RETURNING id`,
      values: [at, eventId],
    });
    return rows.length;
  }

  async prune(before: Date): Promise<number> {
    const rows = await this.rows({ text: `${shared.pruneFinishedDeliveries('$1')} RETURNING id`, values: [before] });
    return rows.length;
  }
}
