// The RateLimitStore contract: what every adapter of the port does, run against each of them.
import { expect } from 'chai';
import type { RateLimitStore } from '../../src/domain/index.js';

const LIMIT = { requests: 3, windowSeconds: 60 };

/** The contract, for the store that `open` makes fresh for each test (and `close` releases). */
export function rateLimitStoreContract(name: string, open: () => Promise<{ store: RateLimitStore; close: () => Promise<void> }>): void {
  describe(`RateLimitStore contract: ${name}`, () => {
    let store: RateLimitStore;
    let close: () => Promise<void>;
    let decidedAlone: number;
    const alone = () => void decidedAlone++;

    beforeEach(async () => {
      ({ store, close } = await open());
      decidedAlone = 0;
    });
    afterEach(() => close());

    it('allows a key its requests in a window, each with what is left, then refuses it until the window ends', async () => {
      const counter = store.counter('contract', LIMIT, alone);
      const answers = [];
      for (let i = 0; i < LIMIT.requests + 2; i++) answers.push(await counter.consume('caller-a'));
      expect(answers.map((a) => a.allowed)).to.deep.equal([true, true, true, false, false]);
      expect(answers.map((a) => a.use.consumed)).to.deep.equal([1, 2, 3, 4, 5]);
      expect(answers.map((a) => a.use.remaining)).to.deep.equal([2, 1, 0, 0, 0]);
      for (const { use } of answers) expect(use.msBeforeReset).to.be.within(1, LIMIT.windowSeconds * 1000);
      expect(decidedAlone, 'a store that answers never decides alone').to.equal(0);
    });

    it('counts each key, and each policy, apart; the counters of one policy together, as instances sharing the store do', async () => {
      const perKey = store.counter('contract', LIMIT, alone);
      const other = store.counter('other-policy', LIMIT, alone);
      const samePolicy = store.counter('contract', LIMIT, alone);
      for (let i = 0; i < LIMIT.requests; i++) await perKey.consume('caller-a');
      expect((await perKey.consume('caller-a')).allowed).to.equal(false);
      expect((await perKey.consume('caller-b')).use.consumed).to.equal(1);
      expect((await other.consume('caller-a')).use.consumed).to.equal(1);
      const shared = await samePolicy.consume('caller-a');
      expect([shared.allowed, shared.use.consumed]).to.deep.equal([false, LIMIT.requests + 2]);
    });

    it('allows a key again once its window has ended', async function () {
      this.timeout(10_000);
      const counter = store.counter('contract-short', { requests: 1, windowSeconds: 1 }, alone);
      expect((await counter.consume('caller-a')).allowed).to.equal(true);
      const refused = await counter.consume('caller-a');
      expect(refused.allowed).to.equal(false);
      await new Promise((resolve) => setTimeout(resolve, refused.use.msBeforeReset + 100));
      const again = await counter.consume('caller-a');
      expect([again.allowed, again.use.consumed]).to.deep.equal([true, 1]);
    });

    it('peeks at a key without counting it, and answers nothing for a key not yet counted', async () => {
      const counter = store.counter('contract', LIMIT, alone);
      expect(await counter.peek('caller-a')).to.equal(undefined);
      await counter.consume('caller-a');
      const seen = await counter.peek('caller-a');
      expect(seen).to.include({ consumed: 1, remaining: 2 });
      expect(await counter.peek('caller-a')).to.include({ consumed: 1 });
      expect((await counter.consume('caller-a')).use.consumed).to.equal(2);
    });
  });
}
