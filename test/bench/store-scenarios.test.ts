// The bench's store scenarios (bench/scenarios/store-scenarios.ts) against the real service: each
// pet available when a measurement starts is ordered once, the warm-up's apart; the inventory;
// both skipped on a server without the store; and their targets, on the project's own figures.
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Measurement, Outcome } from '../../bench/harness/measure.js';
import { inventory, placeOrder, placeOrderScenario } from '../../bench/scenarios/store-scenarios.js';
import { judge, TARGETS } from '../../bench/scenarios/targets.js';
import { startTestServer, TEST_API_KEY, type TestServer } from '../support/test-server.js';

const headers = { authorization: `Bearer ${TEST_API_KEY}` };
const statuses = ['available', 'pending', 'sold'] as const;

const measured = (figures: Partial<Measurement>): Outcome => ({
  measured: {
    requestsPerSecond: 1000,
    p50Ms: 1,
    p99Ms: 2,
    peakRssMb: 80,
    failures: 0,
    serverCpuPercent: 90,
    generatorCpuPercent: 30,
    othersCpuPercent: 1,
    serverCpuMicrosPerRequest: 900,
    disturbed: false,
    ...figures,
  },
});

describe('bench: the store scenarios', () => {
  let live: TestServer;
  before(async () => {
    live = await startTestServer({ kind: 'memory' });
    for (let i = 1; i <= 250; i++) {
      const answer = await fetch(`${live.url}/v1/pets`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Rex ${i}`, categoryId: 1, status: statuses[i % 3] }),
      });
      expect(answer.status).to.equal(201);
    }
  });
  after(() => live.close());

  it('orders each available pet once, the warm-up its share first, creating the pets missing; every order is placed', async () => {
    const prepared = await placeOrderScenario(100).prepare({ origin: live.url, headers, pets: 250, warmupShare: 0.25 });
    if ('skipped' in prepared) throw new Error(`skipped: ${prepared.skipped}`);
    const petIds = (requests: typeof prepared.requests) => requests.map((r) => (JSON.parse(r.body!) as { petId: number }).petId);
    const warmup = petIds(prepared.warmup!);
    const measuredIds = petIds(prepared.requests);
    // 83 pets of 250 are available (every third, from 3), over pages of 100; 17 more are created.
    const created = Array.from({ length: 17 }, (_, i) => 251 + i);
    expect([...warmup, ...measuredIds].sort((x, y) => x - y)).to.deep.equal([
      ...Array.from({ length: 83 }, (_, i) => 3 * (i + 1)),
      ...created,
    ]);
    expect([...warmup, ...measuredIds].slice(0, 83)).to.deep.equal(Array.from({ length: 83 }, (_, i) => 3 * (i + 1)));
    expect(warmup).to.have.length(25);
    for (const request of [...prepared.warmup!, ...prepared.requests]) {
      expect(request).to.include({ method: 'POST', path: '/v1/orders' });
      const answer = await fetch(`${live.url}${request.path}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: request.body!,
      });
      expect(answer.status).to.equal(placeOrder.expectedStatus);
    }
    // The next measurement finds none left, and orders new pets only.
    const next = await placeOrderScenario(10).prepare({ origin: live.url, headers, pets: 250 });
    if ('skipped' in next) throw new Error(`skipped: ${next.skipped}`);
    expect([...next.warmup!, ...next.requests].map((r) => r.body).sort()).to.deep.equal(
      Array.from({ length: 10 }, (_, i) => JSON.stringify({ petId: 268 + i })).sort(),
    );
  });

  it('asks for the inventory, which the service answers', async () => {
    const prepared = await inventory.prepare({ origin: live.url, headers, pets: 250 });
    expect(prepared).to.deep.equal({ requests: [{ method: 'GET', path: '/v1/store/inventory' }] });
    expect(inventory.connections, 'one connection: the time to answer, not a queue').to.equal(1);
    expect((await fetch(`${live.url}/v1/store/inventory`, { headers })).status).to.equal(inventory.expectedStatus);
  });

  it('is skipped on a server that has no store', async () => {
    const server: Server = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      expect(await placeOrder.prepare({ origin, headers, pets: 1 })).to.deep.equal({ skipped: 'the server has no POST /v1/orders' });
      expect(await inventory.prepare({ origin, headers, pets: 1 })).to.deep.equal({ skipped: 'the server has no GET /v1/store/inventory' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("holds place-order to half the project's creates, and the inventory to a 2 ms median, without a reference", () => {
    const creates = (rate: number) => (scenario: string) => (scenario === 'create' ? measured({ requestsPerSecond: rate }) : undefined);
    const orders = { project: measured({ requestsPerSecond: 600 }), baseline: { skipped: 'no store' } };
    expect(judge('place-order', 'create', orders, TARGETS, creates(1000))).to.deep.equal({ met: true, speedJudged: true, misses: [] });
    expect(judge('place-order', 'create', orders, TARGETS, creates(1500))?.misses).to.deep.equal([
      "throughput 0.400 < 0.50 × the project's create",
    ]);
    expect(judge('place-order', 'create', orders, TARGETS)).to.equal(undefined);
    const reads = { project: measured({ p50Ms: 1.5 }), 'card-floor': { skipped: 'no store' } };
    expect(judge('inventory', 'read', reads, TARGETS)).to.deep.equal({ met: true, speedJudged: true, misses: [] });
    expect(judge('inventory', 'read', { project: measured({ p50Ms: 2.5 }) }, TARGETS)?.misses).to.deep.equal(['p50 2.50 ms > 2 ms']);
  });
});
