// The reference behaviour of WebhookStore (see test/contract/webhook-store.contract.ts).
import * as O from 'fp-ts/lib/Option.js';
import { webhookDeliveriesOf } from '../../domain/index.js';
import type * as domain from '../../domain/index.js';
import { DISABLED_ENDPOINT_ERROR } from '../shared/webhook-rows.js';

interface StoredEndpoint {
  record: domain.WebhookEndpoint;
  readonly secret: string;
}

interface StoredDelivery {
  record: domain.WebhookDelivery;
  readonly body: string;
  /** Until when a dispatcher's claim holds; null once its attempt is recorded. */
  leasedUntil: Date | null;
}

const copyOfEndpoint = (record: domain.WebhookEndpoint): domain.WebhookEndpoint => ({
  ...record,
  eventTypes: [...record.eventTypes],
  createdAt: new Date(record.createdAt),
  disabledAt: record.disabledAt === null ? null : new Date(record.disabledAt),
});

const dateOrNull = (date: Date | null): Date | null => (date === null ? null : new Date(date));

const copyOfDelivery = (record: domain.WebhookDelivery): domain.WebhookDelivery => ({
  ...record,
  nextAttemptAt: dateOrNull(record.nextAttemptAt),
  createdAt: new Date(record.createdAt),
  lastAttemptAt: dateOrNull(record.lastAttemptAt),
});

/** Webhook endpoints and deliveries in memory: nothing is kept after exit. */
export class MemoryWebhookStore implements domain.WebhookStore {
  private readonly endpoints = new Map<number, StoredEndpoint>(); // in id order: ids only grow
  private readonly stored: StoredDelivery[] = []; // in id order
  private lastEndpointId = 0;
  private lastDeliveryId = 0;

  async add(endpoint: domain.NewWebhookEndpoint): Promise<domain.WebhookEndpoint> {
    const record: domain.WebhookEndpoint = {
      id: ++this.lastEndpointId as domain.WebhookEndpointId,
      url: endpoint.url,
      eventTypes: [...endpoint.eventTypes],
      createdAt: new Date(endpoint.createdAt),
      disabledAt: null,
    };
    this.endpoints.set(record.id, { record, secret: endpoint.secret });
    return copyOfEndpoint(record);
  }

  async list(): Promise<readonly domain.WebhookEndpoint[]> {
    return [...this.endpoints.values()].map((endpoint) => copyOfEndpoint(endpoint.record));
  }

  async remove(id: domain.WebhookEndpointId): Promise<boolean> {
    if (!this.endpoints.delete(id)) return false;
    this.deliveriesWhere((d) => d.record.endpointId === id).forEach((d) => this.stored.splice(this.stored.indexOf(d), 1));
    return true;
  }

  async disable(id: domain.WebhookEndpointId, at: Date): Promise<O.Option<domain.WebhookEndpoint>> {
    const endpoint = this.endpoints.get(id);
    if (endpoint === undefined) return O.none;
    if (endpoint.record.disabledAt === null) endpoint.record = { ...endpoint.record, disabledAt: new Date(at) };
    for (const delivery of this.deliveriesWhere((d) => d.record.endpointId === id && d.record.status === 'pending')) {
      delivery.record = { ...delivery.record, status: 'failed', nextAttemptAt: null, lastError: DISABLED_ENDPOINT_ERROR };
      delivery.leasedUntil = null;
    }
    return O.some(copyOfEndpoint(endpoint.record));
  }

  async enable(id: domain.WebhookEndpointId): Promise<O.Option<domain.WebhookEndpoint>> {
    const endpoint = this.endpoints.get(id);
    if (endpoint === undefined) return O.none;
    endpoint.record = { ...endpoint.record, disabledAt: null };
    return O.some(copyOfEndpoint(endpoint.record));
  }

  async enqueue(events: readonly domain.WebhookEvent[], at: Date): Promise<void> {
    const endpoints = [...this.endpoints.values()].map((endpoint) => endpoint.record);
    for (const { endpoint, event } of webhookDeliveriesOf(endpoints, events)) {
      if (this.stored.some((d) => d.record.endpointId === endpoint.id && d.record.eventId === event.id)) continue;
      const record: domain.WebhookDelivery = {
        id: ++this.lastDeliveryId as domain.WebhookDeliveryId,
        endpointId: endpoint.id,
        eventId: event.id,
        eventType: event.type,
        attempts: 0,
        status: 'pending',
        nextAttemptAt: new Date(at),
        lastStatus: null,
        lastError: null,
        createdAt: new Date(at),
        lastAttemptAt: null,
      };
      this.stored.push({ record, body: event.body, leasedUntil: null });
    }
  }

  async claimDue(now: Date, limit: number, leaseMs: number, perEndpoint: number): Promise<readonly domain.DueWebhookDelivery[]> {
    const leasedUntil = new Date(now.getTime() + leaseMs);
    const underWay = new Map<domain.WebhookEndpointId, number>();
    for (const d of this.deliveriesWhere((d) => d.record.status === 'pending' && (d.leasedUntil?.getTime() ?? 0) > now.getTime())) {
      underWay.set(d.record.endpointId, (underWay.get(d.record.endpointId) ?? 0) + 1);
    }
    const due: StoredDelivery[] = [];
    const soonestFirst = this.deliveriesWhere((d) => this.isActivePending(d) && d.record.nextAttemptAt!.getTime() <= now.getTime()).sort(
      (a, b) => a.record.nextAttemptAt!.getTime() - b.record.nextAttemptAt!.getTime() || a.record.id - b.record.id,
    );
    for (const delivery of soonestFirst) {
      if (due.length === limit) break;
      const claimed = underWay.get(delivery.record.endpointId) ?? 0;
      if (claimed >= perEndpoint) continue;
      underWay.set(delivery.record.endpointId, claimed + 1);
      due.push(delivery);
    }
    return due.map((delivery) => {
      delivery.record = { ...delivery.record, nextAttemptAt: new Date(leasedUntil) };
      delivery.leasedUntil = new Date(leasedUntil);
      const { record } = delivery;
      const endpoint = this.endpoints.get(record.endpointId)!;
      return {
        claim: { deliveryId: record.id, leasedUntil: new Date(leasedUntil) },
        endpointId: record.endpointId,
        eventId: record.eventId,
        eventType: record.eventType,
        attempts: record.attempts,
        url: endpoint.record.url,
        secret: endpoint.secret,
        body: delivery.body,
      };
    });
  }

  async recordAttempt(claim: domain.WebhookDeliveryClaim, attempt: domain.WebhookAttempt): Promise<boolean> {
    const delivery = this.stored.find((d) => d.record.id === claim.deliveryId);
    if (
      delivery === undefined ||
      !this.isActivePending(delivery) ||
      delivery.record.nextAttemptAt!.getTime() !== claim.leasedUntil.getTime()
    ) {
      return false;
    }
    delivery.record = {
      ...delivery.record,
      attempts: delivery.record.attempts + 1,
      status: attempt.next.status,
      nextAttemptAt: attempt.next.status === 'pending' ? new Date(attempt.next.nextAttemptAt) : null,
      lastStatus: attempt.httpStatus,
      lastError: attempt.error,
      lastAttemptAt: new Date(attempt.at),
    };
    delivery.leasedUntil = null;
    return true;
  }

  async nextDueAt(): Promise<Date | undefined> {
    const times = this.deliveriesWhere((d) => this.isActivePending(d)).map((d) => d.record.nextAttemptAt!.getTime());
    return times.length === 0 ? undefined : new Date(Math.min(...times));
  }

  async backlog(): Promise<domain.Backlog> {
    const times = this.deliveriesWhere((d) => this.isActivePending(d)).map((d) => d.record.createdAt.getTime());
    return { count: times.length, oldest: times.length === 0 ? undefined : new Date(Math.min(...times)) };
  }

  async deliveries(endpointId: domain.WebhookEndpointId, limit: number): Promise<readonly domain.WebhookDelivery[]> {
    return this.deliveriesWhere((d) => d.record.endpointId === endpointId)
      .reverse()
      .slice(0, limit)
      .map((d) => copyOfDelivery(d.record));
  }

  async redeliver(eventId: string, at: Date): Promise<number> {
    const again = this.deliveriesWhere(
      (d) => d.record.eventId === eventId && this.endpoints.get(d.record.endpointId)?.record.disabledAt === null,
    );
    for (const delivery of again) delivery.record = { ...delivery.record, status: 'pending', attempts: 0, nextAttemptAt: new Date(at) };
    return again.length;
  }

  async prune(before: Date): Promise<number> {
    const finishedBefore = (d: StoredDelivery) =>
      d.record.status !== 'pending' && (d.record.lastAttemptAt ?? d.record.createdAt).getTime() < before.getTime();
    const kept = this.stored.filter((d) => !finishedBefore(d));
    const pruned = this.stored.length - kept.length;
    this.stored.splice(0, this.stored.length, ...kept);
    return pruned;
  }

  private deliveriesWhere(test: (delivery: StoredDelivery) => boolean): StoredDelivery[] {
    return this.stored.filter(test);
  }

  private isActivePending(delivery: StoredDelivery): boolean {
    return delivery.record.status === 'pending' && this.endpoints.get(delivery.record.endpointId)?.record.disabledAt === null;
  }
}
