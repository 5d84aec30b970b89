// The races of the store over real HTTP, each proven to happen: the requests meet at a barrier
// in front of the storage's writes, and go on together only once all of them are there (as the
// PATCH race of pet-changes.suite.ts does). Runs on every storage adapter (see store.test.ts).
import { expect } from 'chai';
import type { Container } from 'inversify';
import { TOKENS } from '../../src/composition/tokens.js';
import type { OrderRepository, PetRepository } from '../../src/domain/index.js';
import { clientFor } from '../support/http-client.js';
import { startTestServer, TEST_API_KEY, type TestDatabase } from '../support/test-server.js';

/** A barrier for `expected` callers: each waits until all have come (or 10 s have gone by, which fails the test's count). */
class Barrier {
  arrived = 0;
  private release!: () => void;
  private readonly allIn = new Promise<void>((resolve) => (this.release = resolve));
  private readonly timer: NodeJS.Timeout;
  constructor(private readonly expected: number) {
    this.timer = setTimeout(() => this.release(), 10_000);
  }
  async pass(): Promise<void> {
    if (this.arrived >= this.expected) return;
    this.arrived += 1;
    if (this.arrived === this.expected) {
      clearTimeout(this.timer);
      this.release();
    }
    await this.allIn;
  }
}

/** The container's repositories, each write of which first passes the barrier of the round, when one is set. */
function gated(container: Container, barrier: () => Barrier | undefined): void {
  container.onActivation<OrderRepository>(TOKENS.OrderRepository, (_context, orders) => {
    const place = orders.place.bind(orders);
    return Object.assign(Object.create(orders) as OrderRepository, {
      place: async (request: Parameters<OrderRepository['place']>[0]) => (await barrier()?.pass(), place(request)),
    });
  });
  container.onActivation<PetRepository>(TOKENS.PetRepository, (_context, pets) => {
    const [update, remove] = [pets.update.bind(pets), pets.remove.bind(pets)];
    return Object.assign(Object.create(pets) as PetRepository, {
      update: async (...args: Parameters<PetRepository['update']>) => (await barrier()?.pass(), update(...args)),
      remove: async (...args: Parameters<PetRepository['remove']>) => (await barrier()?.pass(), remove(...args)),
    });
  });
}

export function storeRacesSuite(name: string, database: () => TestDatabase | Promise<TestDatabase>): void {
  describe(`HTTP API 1.3, the store's races, on ${name}`, () => {
    let round: Barrier | undefined;
    let close: () => Promise<void>;
    let api: ReturnType<typeof clientFor>;
    beforeEach(async () => {
      const db = await database();
      const server = await startTestServer(db.config, { configure: (c) => gated(c, () => round) });
      api = clientFor(server.url, TEST_API_KEY);
      close = async () => {
        await server.close();
        await db.cleanup();
      };
    });
    afterEach(async () => {
      round = undefined;
      await close();
    });

    it('answers 50 concurrent orders for one pet with one 201 and 49 409, all 50 at the storage together', async function () {
      this.timeout(30_000);
      const pet = (await api.postJson('/v1/pets', { name: 'Rex', categoryId: 1 })).json;
      round = new Barrier(50);
      const answers = await Promise.all(Array.from({ length: 50 }, () => api.postJson('/v1/orders', { petId: pet.id })));
      expect(round.arrived, 'every placement reached the storage before any was written').to.equal(50);
      expect(answers.filter((a) => a.status === 201)).to.have.length(1);
      const refused = answers.filter((a) => a.status === 409);
      expect(refused).to.have.length(49);
      for (const answer of refused) expect(answer.json.code).to.equal('pet_unavailable');
      expect((await api.get('/v1/orders')).json).to.have.length(1);
      expect(((await api.get('/v1/store/inventory')).json as { pending: number }).pending).to.equal(1);
    });

    for (const rival of ['PATCH to sold', 'DELETE'] as const) {
      it(`never leaves an order on a pet that a racing ${rival} changed, in any of 10 rounds`, async function () {
        this.timeout(60_000);
        const outcomes = new Set<string>();
        for (let i = 0; i < 10; i += 1) {
          const pet = (await api.postJson('/v1/pets', { name: `Raced ${i}`, categoryId: 1 })).json;
          round = new Barrier(2);
          const change =
            rival === 'DELETE'
              ? api.send(`/v1/pets/${pet.id}`, { method: 'DELETE' })
              : api.send(`/v1/pets/${pet.id}`, {
                  method: 'PATCH',
                  headers: { 'Content-Type': 'application/merge-patch+json' },
                  body: JSON.stringify({ status: 'sold' }),
                });
          const [ordered, changed] = await Promise.all([api.postJson('/v1/orders', { petId: pet.id }), change]);
          expect(round.arrived, `round ${i}: both writes were asked for together`).to.equal(2);
          round = undefined;
          const orders = (await api.get(`/v1/orders?petId=${pet.id}`)).json as unknown[];
          const now = await api.get(`/v1/pets/${pet.id}`);
          if (ordered.status === 201) {
            expect(changed.json?.code, `round ${i}`).to.equal('pet_reserved');
            expect([orders.length, now.json.status]).to.deep.equal([1, 'pending']);
          } else {
            expect(ordered.json.code).to.equal(rival === 'DELETE' ? 'unknown_pet' : 'pet_unavailable');
            expect([changed.status, orders.length]).to.deep.equal([rival === 'DELETE' ? 204 : 200, 0]);
          }
          outcomes.add(String(ordered.status));
        }
        expect(outcomes.size, 'both outcomes are possible; at least one was seen').to.be.greaterThan(0);
      });
    }
  });
}
