// The events' metrics as /metrics shows them: the deliveries' help text names every value the
// `transport` label takes, as the relay and the webhook dispatcher count them.
import { expect } from 'chai';
import { Registry } from 'prom-client';
import { InProcessSubscribers } from '../../../src/adapters/relay/in-process-subscribers.js';
import { registerRelayMetrics } from '../../../src/adapters/relay/relay-metrics.js';
import { webhooksTransport } from '../../../src/adapters/webhooks/webhooks-transport.js';
import type { Clock, EventOutbox, WebhookStore } from '../../../src/domain/index.js';

describe('the change events metrics', () => {
  it('name in the deliveries help text every transport they are counted by', async () => {
    const registry = new Registry();
    const outbox = { backlog: () => Promise.resolve({ count: 0, oldest: undefined }) } as unknown as EventOutbox;
    const clock: Clock = { now: () => new Date() };
    const webhooks = { backlog: () => Promise.resolve({ count: 0, oldest: undefined }) } as unknown as WebhookStore;
    const counter = registerRelayMetrics(registry, outbox, webhooks, clock, ['webhooks', 'in-process']);
    // The relay counts its transports by name; the webhook dispatcher counts its attempts as `webhook`.
    const transports = [webhooksTransport({} as WebhookStore, clock, '/petstore').name, new InProcessSubscribers().name, 'nats', 'webhook'];
    for (const transport of transports) counter.count(transport, 'delivered');

    const exposition = await registry.metrics();
    const help = /^# HELP petstore_event_deliveries_total (.*)$/m.exec(exposition)?.[1] ?? '';
    const counted = [...exposition.matchAll(/^petstore_event_deliveries_total\{transport="([^"]+)"/gm)].map((match) => match[1]);
    expect(counted).to.have.members(transports);
    for (const transport of counted) expect(help, transport).to.match(new RegExp(`(^|[ (])${transport}[ ),]`));
  });

  it('show the webhook deliveries still to be made, and the age of the oldest, as the store tells them', async () => {
    const registry = new Registry();
    const now = new Date('2026-11-27T12:00:00.000Z');
    const outbox = { backlog: () => Promise.resolve({ count: 0, oldest: undefined }) } as unknown as EventOutbox;
    const webhooks = { backlog: () => Promise.resolve({ count: 7, oldest: new Date(now.getTime() - 82_500) }) } as unknown as WebhookStore;
    registerRelayMetrics(registry, outbox, webhooks, { now: () => now }, ['webhooks']);
    const exposition = await registry.metrics();
    expect(exposition).to.match(/^petstore_webhook_deliveries_pending 7$/m);
    expect(exposition).to.match(/^petstore_webhook_deliveries_oldest_pending_age_seconds 82.5$/m);
    expect(exposition).to.match(/^petstore_events_pending 0$/m);
  });

  it("show each transport's backlog, and the furthest behind as the events' own", async () => {
    const registry = new Registry();
    const now = new Date('2026-11-27T12:00:00.000Z');
    const backlogs: Record<string, { count: number; oldest: Date | undefined }> = {
      webhooks: { count: 0, oldest: undefined },
      nats: { count: 120, oldest: new Date(now.getTime() - 61_000) },
      'in-process': { count: 3, oldest: new Date(now.getTime() - 2_000) },
    };
    const outbox = { backlog: (transport: string) => Promise.resolve(backlogs[transport]) } as unknown as EventOutbox;
    const webhooks = { backlog: () => Promise.resolve({ count: 0, oldest: undefined }) } as unknown as WebhookStore;
    registerRelayMetrics(registry, outbox, webhooks, { now: () => now }, Object.keys(backlogs));
    const exposition = await registry.metrics();
    expect(exposition).to.match(/^petstore_transport_events_pending\{transport="webhooks"\} 0$/m);
    expect(exposition).to.match(/^petstore_transport_events_pending\{transport="nats"\} 120$/m);
    expect(exposition).to.match(/^petstore_transport_events_pending\{transport="in-process"\} 3$/m);
    expect(exposition).to.match(/^petstore_transport_events_oldest_pending_age_seconds\{transport="webhooks"\} 0$/m);
    expect(exposition).to.match(/^petstore_transport_events_oldest_pending_age_seconds\{transport="nats"\} 61$/m);
    expect(exposition).to.match(/^petstore_transport_events_oldest_pending_age_seconds\{transport="in-process"\} 2$/m);
    expect(exposition).to.match(/^petstore_events_pending 120$/m);
    expect(exposition).to.match(/^petstore_events_oldest_pending_age_seconds 61$/m);
  });
});
