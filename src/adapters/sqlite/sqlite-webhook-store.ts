// WebhookStore in the service's SQLite database (tables webhook_endpoints and
// webhook_deliveries): claims are IMMEDIATE transactions, so two processes on the file never
// claim the same attempt. The queuing, claims and records of deliveries ride the connection's
// group commit: at hundreds of deliveries a second, a COMMIT (and its fsync) each would take
// the event loop from the requests.
import * as O from 'fp-ts/lib/Option.js';
import type { Database, Statement } from 'better-sqlite3';
import { webhookDeliveriesOf } from '../../domain/index.js';
import type * as domain from '../../domain/index.js';
import * as shared from '../shared/webhook-rows.js';
import { type GroupCommit, groupCommit } from './group-commit.js';

const AS: shared.RowConversions<number, number> = { id: (id) => id, time: (time) => new Date(time) };
const endpointOf = (row: shared.WebhookEndpointRow<number, number>): domain.WebhookEndpoint => shared.webhookEndpointOf(row, AS);
const deliveryOf = (row: shared.WebhookDeliveryRow<number, number>): domain.WebhookDelivery => shared.webhookDeliveryOf(row, AS);

// Pending deliveries to active endpoints, the only ones that may be claimed or are due.
const ACTIVE_PENDING = `status = 'pending' AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE disabled_at IS NULL)`;

// Each active endpoint's due front, as SQLite can take it: it has no LATERAL, and runs the
// correlated IN once per endpoint.
const SQLITE_DUE_CANDIDATES = `SELECT d.id, d.endpoint_id, d.next_attempt_at
   FROM webhook_endpoints e JOIN webhook_deliveries d ON d.id IN (${shared.dueFrontOf('@now', '@perEndpoint')})
  WHERE e.disabled_at IS NULL`;

/** Webhook endpoints and deliveries in a SQLite database opened by openSqliteDatabase (which migrates it). */
export class SqliteWebhookStore implements domain.WebhookStore {
  private readonly statements;
  private readonly commit: GroupCommit;

  constructor(private readonly db: Database) {
    this.commit = groupCommit(db);
    const prepare = <P extends unknown[], R = unknown>(sql: string): Statement<P, R> => db.prepare<P, R>(sql);
    this.statements = {
      insertEndpoint: prepare<[string, string, string, number], shared.WebhookEndpointRow<number, number>>(
        `INSERT INTO webhook_endpoints (url, event_types, secret, created_at) VALUES (?, ?, ?, ?) RETURNING ${shared.WEBHOOK_ENDPOINT_COLUMNS}`,
      ),
      endpoints: prepare<[], shared.WebhookEndpointRow<number, number>>(
        `SELECT ${shared.WEBHOOK_ENDPOINT_COLUMNS} FROM webhook_endpoints ORDER BY id`,
      ),
      deleteEndpoint: prepare<[number]>('DELETE FROM webhook_endpoints WHERE id = ?'),
      disableEndpoint: prepare<[number, number], shared.WebhookEndpointRow<number, number>>(
        `UPDATE webhook_endpoints SET disabled_at = coalesce(disabled_at, ?) WHERE id = ? RETURNING ${shared.WEBHOOK_ENDPOINT_COLUMNS}`,
      ),
      enableEndpoint: prepare<[number], shared.WebhookEndpointRow<number, number>>(
        `UPDATE webhook_endpoints SET disabled_at = NULL WHERE id = ? RETURNING ${shared.WEBHOOK_ENDPOINT_COLUMNS}`,
      ),
      failPending: prepare<[string, number]>(
        `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, leased_until = NULL, last_error = ?
          WHERE endpoint_id = ? AND status = 'pending'`,
      ),
      insertDelivery: prepare<[number, string, string, string, number, number]>(
        `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, body, status, next_attempt_at, created_at)
         VALUES (?, ?, ?, ?, 'pending', ?, ?) ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
      ),
      due: prepare<[{ now: number; limit: number; perEndpoint: number }], shared.DueWebhookDeliveryRow<number>>(
        // CROSS JOIN keeps SQLite's planner to this order: the few ranked rows first, each then
        // found by its key, rather than a scan of every delivery matched against them.
        `WITH ${shared.rankedDueDeliveries('@now', SQLITE_DUE_CANDIDATES)}
         SELECT d.id, d.endpoint_id, d.event_id, d.event_type, d.attempts, d.body, e.url, e.secret
           FROM ranked CROSS JOIN webhook_deliveries d ON d.id = ranked.id CROSS JOIN webhook_endpoints e ON e.id = d.endpoint_id
          WHERE ranked.place <= @perEndpoint - ranked.claims
          ORDER BY d.next_attempt_at, d.id LIMIT @limit`,
      ),
      lease: prepare<[{ until: number; id: number }]>(
        'UPDATE webhook_deliveries SET next_attempt_at = @until, leased_until = @until WHERE id = @id',
      ),
      record: prepare<[string, number | null, number | null, string | null, number, number, number]>(
        `UPDATE webhook_deliveries
            SET status = ?, next_attempt_at = ?, last_status = ?, last_error = ?, last_attempt_at = ?, attempts = attempts + 1,
                leased_until = NULL
          WHERE id = ? AND next_attempt_at = ? AND ${ACTIVE_PENDING}`,
      ),
      nextDue: prepare<[], { next: number | null }>(`SELECT min(next_attempt_at) AS next FROM webhook_deliveries WHERE ${ACTIVE_PENDING}`),
      backlog: prepare<[], { count: number; oldest: number | null }>(
        `SELECT count(*) AS count, min(created_at) AS oldest FROM webhook_deliveries WHERE ${ACTIVE_PENDING}`,
      ),
      deliveries: prepare<[number, number], shared.WebhookDeliveryRow<number, number>>(
        `SELECT ${shared.WEBHOOK_DELIVERY_COLUMNS} FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY id DESC LIMIT ?`,
      ),
      redeliver: prepare<[number, string]>(
        `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = ?
          WHERE event_id = ? AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE disabled_at IS NULL)`,
      ),
      prune: prepare<[{ before: number }]>(shared.pruneFinishedDeliveries('@before')),
    };
  }

  async add(endpoint: domain.NewWebhookEndpoint): Promise<domain.WebhookEndpoint> {
    const row = this.statements.insertEndpoint.get(
      endpoint.url,
      shared.eventTypesColumn(endpoint.eventTypes),
      endpoint.secret,
      endpoint.createdAt.getTime(),
    );
    if (row === undefined) throw new Error('INSERT … RETURNING gave no row');
    return endpointOf(row);
  }

  async list(): Promise<readonly domain.WebhookEndpoint[]> {
    return this.statements.endpoints.all().map(endpointOf);
  }

  async remove(id: domain.WebhookEndpointId): Promise<boolean> {
    // The deliveries go with it: ON DELETE CASCADE (foreign_keys is on).
    return this.statements.deleteEndpoint.run(id).changes > 0;
  }

  async disable(id: domain.WebhookEndpointId, at: Date): Promise<O.Option<domain.WebhookEndpoint>> {
    const row = this.db
      .transaction(() => {
        const disabled = this.statements.disableEndpoint.get(at.getTime(), id);
        if (disabled !== undefined) this.statements.failPending.run(shared.DISABLED_ENDPOINT_ERROR, id);
        return disabled;
      })
      .immediate();
    return row === undefined ? O.none : O.some(endpointOf(row));
  }

  async enable(id: domain.WebhookEndpointId): Promise<O.Option<domain.WebhookEndpoint>> {
    const row = this.statements.enableEndpoint.get(id);
    return row === undefined ? O.none : O.some(endpointOf(row));
  }

  async enqueue(events: readonly domain.WebhookEvent[], at: Date): Promise<void> {
    if (events.length === 0) return;
    await this.commit(() => {
      for (const { endpoint, event } of webhookDeliveriesOf(this.statements.endpoints.all().map(endpointOf), events)) {
        this.statements.insertDelivery.run(endpoint.id, event.id, event.type, event.body, at.getTime(), at.getTime());
      }
    });
  }

  async claimDue(now: Date, limit: number, leaseMs: number, perEndpoint: number): Promise<readonly domain.DueWebhookDelivery[]> {
    const leasedUntil = new Date(now.getTime() + leaseMs);
    // The group commit's transaction is IMMEDIATE: the write lock is taken before the read, so
    // another process's claim waits and then sees these claimed.
    return this.commit(() =>
      this.statements.due.all({ now: now.getTime(), limit, perEndpoint }).map((row) => {
        this.statements.lease.run({ until: leasedUntil.getTime(), id: row.id });
        return shared.dueWebhookDeliveryOf(row, AS.id, leasedUntil);
      }),
    );
  }

  async recordAttempt(claim: domain.WebhookDeliveryClaim, attempt: domain.WebhookAttempt): Promise<boolean> {
    const columns = shared.attemptColumns(attempt, (date) => date.getTime());
    return this.commit(() => this.statements.record.run(...columns, claim.deliveryId, claim.leasedUntil.getTime()).changes > 0);
  }

  async nextDueAt(): Promise<Date | undefined> {
    const next = this.statements.nextDue.get()?.next ?? null;
    return next === null ? undefined : new Date(next);
  }

  async backlog(): Promise<domain.Backlog> {
    const { count, oldest } = this.statements.backlog.get()!;
    return { count, oldest: oldest === null ? undefined : new Date(oldest) };
  }

  async deliveries(endpointId: domain.WebhookEndpointId, limit: number): Promise<readonly domain.WebhookDelivery[]> {
    return this.statements.deliveries.all(endpointId, limit).map(deliveryOf);
  }

  async redeliver(eventId: string, at: Date): Promise<number> {
    return this.statements.redeliver.run(at.getTime(), eventId).changes;
  }

  async prune(before: Date): Promise<number> {
    return this.statements.prune.run({ before: before.getTime() }).changes;
  }
}
