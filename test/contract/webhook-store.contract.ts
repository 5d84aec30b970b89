// The behaviour every WebhookStore adapter must have; the memory adapter is its reference.
import { expect } from 'chai';
import * as O from 'fp-ts/lib/Option.js';
import type {
  PetEventType,
  WebhookAttempt,
  WebhookEndpoint,
  WebhookEndpointId,
  WebhookEvent,
  WebhookStore,
  WebhookUrl,
} from '../../src/domain/index.js';

export interface WebhookStoreUnderTest {
  readonly store: WebhookStore;
  close(): Promise<void>;
}

const T0 = new Date('2030-01-01T00:00:00.123Z').getTime();
const at = (ms: number) => new Date(T0 + ms);
const LEASE = 60_000;
/** A bound on one endpoint's claims that the tests of other things never reach. */
const PER_ENDPOINT = 10;

const eventOf = (id: string, type: PetEventType = 'petstore.pet.created'): WebhookEvent => ({
  id,
  type,
  body: JSON.stringify({ specversion: '1.0', id, type, data: { name: 'Zürich 🐕' } }),
});
const delivered = (ms: number, httpStatus = 204): WebhookAttempt => ({
  at: at(ms),
  httpStatus,
  error: null,
  next: { status: 'delivered' },
});
const retryAt = (ms: number, next: number, httpStatus: number | null = 503): WebhookAttempt => ({
  at: at(ms),
  httpStatus,
  error: httpStatus === null ? 'timeout after 10000 ms' : null,
  next: { status: 'pending', nextAttemptAt: at(next) },
});

export function webhookStoreContract(adapterName: string, open: () => Promise<WebhookStoreUnderTest>): void {
  describe(`WebhookStore contract: ${adapterName}`, () => {
    let subject: WebhookStoreUnderTest;
    let store: WebhookStore;
    beforeEach(async () => {
      subject = await open();
      store = subject.store;
    });
    afterEach(() => subject.close());

    const add = (name: string, eventTypes: readonly PetEventType[] = []): Promise<WebhookEndpoint> =>
      store.add({
        url: `https://hooks.example/${name}?a=1` as WebhookUrl,
        eventTypes,
        secret: `whsec_${Buffer.from(name).toString('base64')}`,
        createdAt: at(0),
      });

    it('lists nothing at first, and has nothing due', async () => {
      expect(await store.list()).to.deep.equal([]);
      expect(await store.claimDue(at(0), 10, LEASE, PER_ENDPOINT)).to.deep.equal([]);
      expect(await store.nextDueAt()).to.equal(undefined);
    });

    it('adds endpoints with increasing ids and lists them in id order, never with a secret', async () => {
      const first = await add('first', ['petstore.pet.deleted', 'petstore.pet.created']);
      const second = await add('second');
      expect(first).to.deep.equal({
        id: first.id,
        url: 'https://hooks.example/first?a=1',
        eventTypes: ['petstore.pet.deleted', 'petstore.pet.created'],
        createdAt: at(0),
        disabledAt: null,
      });
      expect(first.id).to.be.above(0).and.below(second.id);
      const listed = await store.list();
      expect(listed).to.deep.equal([first, second]);
      for (const record of listed) expect(Object.keys(record).sort()).to.deep.equal(['createdAt', 'disabledAt', 'eventTypes', 'id', 'url']);
      expect(JSON.stringify(listed)).not.to.contain('whsec_');
    });

    it('enqueues one pending delivery per active endpoint that wants the event, once, however often the event comes', async () => {
      const all = await add('all');
      const deletions = await add('deletions', ['petstore.pet.deleted']);
      await store.enqueue([eventOf('e1'), eventOf('e2', 'petstore.pet.deleted')], at(10));
      await store.enqueue([eventOf('e2', 'petstore.pet.deleted')], at(20));
      expect((await store.deliveries(all.id, 10)).map((d) => d.eventId)).to.deep.equal(['e2', 'e1']);
      const [only, ...none] = await store.deliveries(deletions.id, 10);
      expect(none).to.deep.equal([]);
      expect(only).to.deep.equal({
        id: only!.id,
        endpointId: deletions.id,
        eventId: 'e2',
        eventType: 'petstore.pet.deleted',
        attempts: 0,
        status: 'pending',
        nextAttemptAt: at(10),
        lastStatus: null,
        lastError: null,
        createdAt: at(10),
        lastAttemptAt: null,
      });
    });

    it('claims due deliveries soonest first, with the url, the secret and the body verbatim, and not again while claimed', async () => {
      const endpoint = await add('claimed');
      await store.enqueue([eventOf('late')], at(500));
      await store.enqueue([eventOf('early')], at(100));
      expect(await store.claimDue(at(99), 10, LEASE, PER_ENDPOINT), 'nothing is due yet').to.deep.equal([]);
      expect(await store.nextDueAt()).to.deep.equal(at(100));
      const claimed = await store.claimDue(at(1000), 10, LEASE, PER_ENDPOINT);
      expect(claimed.map((d) => d.eventId)).to.deep.equal(['early', 'late']);
      expect(claimed[0]).to.deep.include({
        endpointId: endpoint.id,
        eventType: 'petstore.pet.created',
        attempts: 0,
        url: 'https://hooks.example/claimed?a=1',
        secret: `whsec_${Buffer.from('claimed').toString('base64')}`,
        body: eventOf('early').body,
      });
      expect(claimed[0]!.claim.leasedUntil).to.deep.equal(at(1000 + LEASE));
      expect(await store.claimDue(at(1000 + LEASE - 1), 10, LEASE, PER_ENDPOINT), 'while the claims hold').to.deep.equal([]);
      expect(await store.nextDueAt(), 'a claim counts as due at its end').to.deep.equal(at(1000 + LEASE));
    });

    it('claims at most `limit` deliveries at once', async () => {
      await add('many');
      await store.enqueue(
        ['a', 'b', 'c'].map((id) => eventOf(id)),
        at(0),
      );
      expect((await store.claimDue(at(0), 2, LEASE, PER_ENDPOINT)).map((d) => d.eventId)).to.deep.equal(['a', 'b']);
      expect((await store.claimDue(at(0), 2, LEASE, PER_ENDPOINT)).map((d) => d.eventId)).to.deep.equal(['c']);
    });

    it("claims an endpoint's deliveries only while fewer than `perEndpoint` are under way, those of the same claim included", async () => {
      await add('a', ['petstore.pet.created']);
      await add('b', ['petstore.pet.deleted']);
      for (const [n, id] of ['a1', 'a2', 'a3'].entries()) await store.enqueue([eventOf(id)], at(n));
      await store.enqueue([eventOf('b1', 'petstore.pet.deleted')], at(3));
      const first = await store.claimDue(at(10), 10, LEASE, 2);
      expect(first.map((d) => d.eventId)).to.deep.equal(['a1', 'a2', 'b1']);
      expect(await store.claimDue(at(20), 10, LEASE, 2), "while a1's and a2's claims hold").to.deep.equal([]);
      expect(await store.recordAttempt(first[0]!.claim, retryAt(30, 50))).to.equal(true);
      expect(
        (await store.claimDue(at(40), 10, LEASE, 2)).map((d) => d.eventId),
        'a1 recorded, to be retried later, is no longer under way',
      ).to.deep.equal(['a3']);
      expect(await store.claimDue(at(50), 10, LEASE, 2), 'a1 due again while a2 and a3 are under way').to.deep.equal([]);
    });

    it('counts a claim whose lease ran out as no longer under way', async () => {
      await add('a');
      for (const [n, id] of ['a1', 'a2', 'a3'].entries()) await store.enqueue([eventOf(id)], at(n));
      expect((await store.claimDue(at(10), 10, LEASE, 2)).map((d) => d.eventId)).to.deep.equal(['a1', 'a2']);
      expect(await store.claimDue(at(10 + LEASE - 1), 10, LEASE, 2)).to.deep.equal([]);
      expect((await store.claimDue(at(10 + LEASE), 10, LEASE, 2)).map((d) => d.eventId)).to.deep.equal(['a3', 'a1']);
    });

    it('records a delivered attempt: delivered, one attempt, the status, and never due again', async () => {
      const endpoint = await add('ok');
      await store.enqueue([eventOf('e')], at(0));
      const [due] = await store.claimDue(at(5), 10, LEASE, PER_ENDPOINT);
      const [before] = await store.deliveries(endpoint.id, 1);
      expect(await store.recordAttempt(due!.claim, delivered(6))).to.equal(true);
      expect(await store.deliveries(endpoint.id, 1)).to.deep.equal([
        { ...before!, attempts: 1, status: 'delivered', nextAttemptAt: null, lastStatus: 204, lastError: null, lastAttemptAt: at(6) },
      ]);
      expect(await store.claimDue(at(10 * LEASE), 10, LEASE, PER_ENDPOINT)).to.deep.equal([]);
      expect(await store.nextDueAt()).to.equal(undefined);
    });

    it('tells its backlog: the deliveries to active endpoints not yet made, claimed or waiting for a retry, and when the oldest was queued', async () => {
      expect(await store.backlog()).to.deep.equal({ count: 0, oldest: undefined });
      const ok = await add('backlog-ok');
      const gone = await add('backlog-gone');
      await store.enqueue([eventOf('first')], at(100));
      await store.enqueue([eventOf('second')], at(200));
      expect(await store.backlog(), 'two events, two endpoints').to.deep.equal({ count: 4, oldest: at(100) });
      const claimed = await store.claimDue(at(300), 10, LEASE, PER_ENDPOINT);
      expect(await store.backlog(), 'claimed, still to be made').to.deep.equal({ count: 4, oldest: at(100) });
      const first = claimed.find((d) => d.endpointId === ok.id && d.eventId === 'first')!;
      expect(await store.recordAttempt(first.claim, delivered(301))).to.equal(true);
      const second = claimed.find((d) => d.endpointId === ok.id && d.eventId === 'second')!;
      expect(await store.recordAttempt(second.claim, retryAt(301, 5000))).to.equal(true);
      expect(await store.backlog(), 'one delivered; one waiting for its retry').to.deep.equal({ count: 3, oldest: at(100) });
      await store.disable(gone.id, at(400));
      expect(await store.backlog(), "a disabled endpoint's deliveries are not waited for").to.deep.equal({ count: 1, oldest: at(200) });
    });

    it('records a failed attempt to retry: due again at its next time, with the attempts counted', async () => {
      const endpoint = await add('retry');
      await store.enqueue([eventOf('e')], at(0));
      const [first] = await store.claimDue(at(0), 10, LEASE, PER_ENDPOINT);
      expect(await store.recordAttempt(first!.claim, retryAt(1, 5000))).to.equal(true);
      expect(await store.claimDue(at(4999), 10, LEASE, PER_ENDPOINT)).to.deep.equal([]);
      const [second] = await store.claimDue(at(5000), 10, LEASE, PER_ENDPOINT);
      expect(second!.attempts).to.equal(1);
      expect(await store.recordAttempt(second!.claim, retryAt(5001, 40_000, null))).to.equal(true);
      const [record] = await store.deliveries(endpoint.id, 1);
      expect(record).to.deep.include({
        attempts: 2,
        status: 'pending',
        nextAttemptAt: at(40_000),
        lastStatus: null,
        lastError: 'timeout after 10000 ms',
        lastAttemptAt: at(5001),
      });
      const [third] = await store.claimDue(at(40_000), 10, LEASE, PER_ENDPOINT);
      expect(
        await store.recordAttempt(third!.claim, { at: at(40_001), httpStatus: 500, error: null, next: { status: 'failed' } }),
      ).to.equal(true);
      expect((await store.deliveries(endpoint.id, 1))[0]).to.deep.include({
        attempts: 3,
        status: 'failed',
        nextAttemptAt: null,
        lastStatus: 500,
      });
    });

    it('refuses the outcome of a claim that no longer holds: its lease ran out and another dispatcher claimed the delivery', async () => {
      const endpoint = await add('stale');
      await store.enqueue([eventOf('e')], at(0));
      const [stale] = await store.claimDue(at(0), 10, LEASE, PER_ENDPOINT);
      const [fresh] = await store.claimDue(at(LEASE), 10, LEASE, PER_ENDPOINT);
      expect(fresh!.claim.leasedUntil).to.deep.equal(at(2 * LEASE));
      expect(await store.recordAttempt(stale!.claim, delivered(LEASE + 1))).to.equal(false);
      expect((await store.deliveries(endpoint.id, 1))[0]).to.deep.include({ attempts: 0, status: 'pending' });
      expect(await store.recordAttempt(fresh!.claim, delivered(LEASE + 2))).to.equal(true);
      expect(await store.recordAttempt(fresh!.claim, delivered(LEASE + 3)), 'an outcome is recorded once').to.equal(false);
      expect((await store.deliveries(endpoint.id, 1))[0]).to.deep.include({
        attempts: 1,
        status: 'delivered',
        lastAttemptAt: at(LEASE + 2),
      });
    });

    it('disables an endpoint: its pending deliveries fail, it gets no new ones, and a second time keeps the first time', async () => {
      const gone = await add('gone');
      const kept = await add('kept');
      await store.enqueue([eventOf('e1')], at(0));
      expect(await store.disable(gone.id, at(100))).to.deep.equal(O.some({ ...gone, disabledAt: at(100) }));
      expect(await store.disable(gone.id, at(200))).to.deep.equal(O.some({ ...gone, disabledAt: at(100) }));
      expect(await store.disable(9999 as WebhookEndpointId, at(200))).to.deep.equal(O.none);
      await store.enqueue([eventOf('e2')], at(300));
      expect((await store.deliveries(gone.id, 10)).map((d) => [d.eventId, d.status, d.nextAttemptAt])).to.deep.equal([
        ['e1', 'failed', null],
      ]);
      expect((await store.claimDue(at(1000), 10, LEASE, PER_ENDPOINT)).map((d) => [d.endpointId, d.eventId])).to.deep.equal([
        [kept.id, 'e1'],
        [kept.id, 'e2'],
      ]);
      expect((await store.list()).map((e) => e.disabledAt)).to.deep.equal([at(100), null]);
    });

    it('enables a disabled endpoint again: it gets deliveries of events from then on, its failed ones stay failed', async () => {
      const endpoint = await add('back');
      await store.enqueue([eventOf('before')], at(0));
      await store.disable(endpoint.id, at(100));
      await store.enqueue([eventOf('while')], at(200));
      expect(await store.enable(endpoint.id)).to.deep.equal(O.some({ ...endpoint, disabledAt: null }));
      expect(await store.enable(endpoint.id)).to.deep.equal(O.some({ ...endpoint, disabledAt: null }));
      expect(await store.enable(9999 as WebhookEndpointId)).to.deep.equal(O.none);
      await store.enqueue([eventOf('after')], at(300));
      expect((await store.deliveries(endpoint.id, 10)).map((d) => [d.eventId, d.status])).to.deep.equal([
        ['after', 'pending'],
        ['before', 'failed'],
      ]);
      expect((await store.claimDue(at(300), 10, LEASE, PER_ENDPOINT)).map((d) => d.eventId)).to.deep.equal(['after']);
      expect(await store.list()).to.deep.equal([{ ...endpoint, disabledAt: null }]);
    });

    it('removes an endpoint with its deliveries; an unknown id removes nothing', async () => {
      const removed = await add('removed');
      const kept = await add('kept');
      await store.enqueue([eventOf('e')], at(0));
      expect(await store.remove(removed.id)).to.equal(true);
      expect(await store.remove(removed.id)).to.equal(false);
      expect(await store.list()).to.deep.equal([kept]);
      expect(await store.deliveries(removed.id, 10)).to.deep.equal([]);
      expect((await store.claimDue(at(0), 10, LEASE, PER_ENDPOINT)).map((d) => d.endpointId)).to.deep.equal([kept.id]);
      const again = await add('again');
      expect(again.id, 'ids are not reused').to.be.above(kept.id);
    });

    it('lists an endpoint’s most recent deliveries first, at most `limit`', async () => {
      const endpoint = await add('recent');
      await store.enqueue(
        ['a', 'b', 'c', 'd'].map((id) => eventOf(id)),
        at(0),
      );
      expect((await store.deliveries(endpoint.id, 3)).map((d) => d.eventId)).to.deep.equal(['d', 'c', 'b']);
    });

    it('prunes finished deliveries last tried (or, never tried, made) before a time; pending ones stay, however old', async () => {
      const endpoint = await add('prune');
      const off = await add('off');
      await store.enqueue(
        ['done', 'late', 'waiting'].map((id) => eventOf(id)),
        at(0),
      );
      for (const due of await store.claimDue(at(0), 10, LEASE, PER_ENDPOINT)) {
        if (due.endpointId !== endpoint.id) continue;
        if (due.eventId === 'done') await store.recordAttempt(due.claim, delivered(10));
        if (due.eventId === 'late') await store.recordAttempt(due.claim, { ...delivered(5000), httpStatus: 200 });
        if (due.eventId === 'waiting') await store.recordAttempt(due.claim, retryAt(10, 9_000_000));
      }
      // Failed by the disabling, never tried: their time is when they were made.
      await store.disable(off.id, at(20));
      await store.enqueue([eventOf('new')], at(6000));

      expect(await store.prune(at(1000))).to.equal(4);
      expect((await store.deliveries(endpoint.id, 10)).map((d) => [d.eventId, d.status])).to.deep.equal([
        ['new', 'pending'],
        ['waiting', 'pending'],
        ['late', 'delivered'],
      ]);
      expect(await store.deliveries(off.id, 10)).to.deep.equal([]);
      expect(await store.prune(at(1000))).to.equal(0);
      expect(await store.prune(at(10_000_000))).to.equal(1);
      expect((await store.deliveries(endpoint.id, 10)).map((d) => d.eventId)).to.deep.equal(['new', 'waiting']);
    });

    it('redelivers an event to every active endpoint that had it: pending, due now, attempts back to 0', async () => {
      const one = await add('one');
      const two = await add('two');
      const off = await add('off');
      await store.enqueue([eventOf('e'), eventOf('other')], at(0));
      for (const due of await store.claimDue(at(0), 10, LEASE, PER_ENDPOINT)) {
        await store.recordAttempt(
          due.claim,
          due.eventId === 'e' && due.endpointId === two.id
            ? { at: at(1), httpStatus: 400, error: null, next: { status: 'failed' } }
            : delivered(1),
        );
      }
      await store.disable(off.id, at(2));
      expect(await store.redeliver('e', at(1000))).to.equal(2);
      expect(await store.redeliver('unknown', at(1000))).to.equal(0);
      for (const endpoint of [one, two]) {
        const [other, e] = await store.deliveries(endpoint.id, 2);
        expect(e).to.deep.include({ eventId: 'e', status: 'pending', attempts: 0, nextAttemptAt: at(1000) });
        expect(other).to.deep.include({ eventId: 'other', status: 'delivered' });
      }
      expect(
        (await store.claimDue(at(1000), 10, LEASE, PER_ENDPOINT)).map((d) => [d.endpointId, d.eventId, d.attempts, d.body]),
      ).to.deep.equal([
        [one.id, 'e', 0, eventOf('e').body],
        [two.id, 'e', 0, eventOf('e').body],
      ]);
    });

    it('does not let a caller change a stored record through the one it was given', async () => {
      const endpoint = await add('frozen');
      endpoint.createdAt.setTime(0);
      await store.enqueue([eventOf('e')], at(0));
      const [delivery] = await store.deliveries(endpoint.id, 1);
      delivery!.createdAt.setTime(0);
      expect((await store.list())[0]!.createdAt).to.deep.equal(at(0));
      expect((await store.deliveries(endpoint.id, 1))[0]!.createdAt).to.deep.equal(at(0));
    });
  });
}
