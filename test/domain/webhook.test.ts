// The rules of webhooks that need no storage: URLs, event type lists, the retry schedule.
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { FETCH_BLOCKED_PORTS } from '../../src/domain/fetch-blocked-tcp-ports.js';
import {
  nextWebhookAttemptAt,
  parseEventTypes,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_DELAYS_MS,
  webhookDeliveriesOf,
  type WebhookEndpointId,
  webhookUrlProblem,
} from '../../src/domain/index.js';

describe('webhook URLs', () => {
  it('accepts absolute http and https URLs', () => {
    for (const url of ['http://127.0.0.1:8080/hook', 'https://example.com/a/b?c=d', 'HTTPS://Example.com']) {
      expect(webhookUrlProblem(url), url).to.equal(undefined);
    }
  });

  it('refuses other schemes, relative URLs, credentials and very long URLs, each with a reason', () => {
    for (const url of [
      'ftp://example.com/',
      '/hook',
      'example.com',
      'http://',
      'https://user:pw@example.com/',
      'https://user@example.com/',
      `https://example.com/${'a'.repeat(2000)}`,
    ]) {
      expect(webhookUrlProblem(url), url).to.be.a('string');
    }
    expect(webhookUrlProblem('https://user:pw@example.com/')).not.to.contain('pw');
  });

  it('refuses what is not printable ASCII, which URL parsing drops or keeps unlike what is stored and listed', () => {
    for (const character of ['\n', '\t', '\r', ' ', '\u001b', '\u0000', '\u007f', '\u0085', '\u009b', '\u202e', 'é', '🐕']) {
      const url = `http://127.0.0.1:8080/a${character}b`;
      expect(webhookUrlProblem(url), JSON.stringify(url)).to.contain('printable ASCII');
    }
    expect(webhookUrlProblem('https://bücher.example/hook')).to.contain('punycode');
    expect(webhookUrlProblem('https://xn--bcher-kva.example/hook')).to.equal(undefined);
    expect(webhookUrlProblem('http://127.0.0.1:8080/a%20b%0A')).to.equal(undefined);
  });

  it("refuses the ports that Node's fetch refuses to connect to, and only those of their neighbours", async () => {
    const refusedByFetch = async (port: number): Promise<boolean> => {
      try {
        await fetch(`http://127.0.0.1:${port}/hook`, { method: 'POST', signal: AbortSignal.timeout(2_000) });
        return false;
      } catch (err) {
        return err instanceof Error && err.cause instanceof Error && err.cause.message === 'bad port';
      }
    };
    for (const port of FETCH_BLOCKED_PORTS) {
      expect(webhookUrlProblem(`http://127.0.0.1:${port}/hook`), String(port)).to.contain(`port ${port}`);
      expect(await refusedByFetch(port), `fetch refuses port ${port}`).to.equal(true);
    }
    for (const port of [2, 8, 10, 80, 443, 3000, 6664, 6670, 10079, 10081]) {
      expect(webhookUrlProblem(`http://127.0.0.1:${port}/hook`), String(port)).to.equal(undefined);
      expect(await refusedByFetch(port), `fetch connects to port ${port}`).to.equal(false);
    }
  });
});

describe('event type lists', () => {
  it('reads a comma-separated list into known types, each once, in their order; empty is every type', () => {
    expect(parseEventTypes('petstore.pet.deleted, petstore.pet.created,petstore.pet.deleted')).to.deep.equal(
      E.right(['petstore.pet.created', 'petstore.pet.deleted']),
    );
    expect(parseEventTypes('')).to.deep.equal(E.right([]));
  });

  it("takes the categories' event types (interface 1.3), in the order of the list of types", () => {
    expect(parseEventTypes('petstore.category.deleted,petstore.pet.updated,petstore.category.created')).to.deep.equal(
      E.right(['petstore.pet.updated', 'petstore.category.created', 'petstore.category.deleted']),
    );
  });

  it('answers the first name that is not an event type', () => {
    expect(parseEventTypes('petstore.pet.created,pet.eaten')).to.deep.equal(E.left('pet.eaten'));
  });
});

describe('the deliveries of events', () => {
  it('pairs each event with each active endpoint that wants it', () => {
    const id = (n: number) => n as WebhookEndpointId;
    const endpoints = [
      { id: id(1), eventTypes: [], disabledAt: null },
      { id: id(2), eventTypes: ['petstore.pet.deleted' as const], disabledAt: null },
      { id: id(3), eventTypes: [], disabledAt: new Date(0) },
    ];
    const created = { id: 'e1', type: 'petstore.pet.created' as const, body: '{}' };
    const deleted = { id: 'e2', type: 'petstore.pet.deleted' as const, body: '{}' };
    expect(webhookDeliveriesOf(endpoints, [created, deleted]).map(({ endpoint, event }) => [endpoint.id, event.id])).to.deep.equal([
      [1, 'e1'],
      [1, 'e2'],
      [2, 'e2'],
    ]);
  });
});

describe('the webhook retry schedule', () => {
  const failedAt = new Date('2026-11-26T12:00:00Z');
  const delayAfter = (attempts: number, random: number) => nextWebhookAttemptAt(attempts, failedAt, random)!.getTime() - failedAt.getTime();

  it('retries first within about 5 s, then 30 s, 2 min, 10 min, 1 h and 6 h', () => {
    expect([1, 2, 3, 4, 5, 6].map((attempts) => delayAfter(attempts, 0.5))).to.deep.equal([
      5_000, 30_000, 120_000, 600_000, 3_600_000, 21_600_000,
    ]);
    expect(WEBHOOK_MAX_ATTEMPTS).to.equal(7);
  });

  it('jitters each delay by at most 20 % either way', () => {
    WEBHOOK_RETRY_DELAYS_MS.forEach((delay, index) => {
      expect(delayAfter(index + 1, 0)).to.equal(delay * 0.8);
      expect(delayAfter(index + 1, 0.999999)).to.be.within(delay * 1.19, delay * 1.2);
    });
  });

  it('gives up after the last attempt', () => {
    expect(nextWebhookAttemptAt(WEBHOOK_MAX_ATTEMPTS, failedAt, 0.5)).to.equal(undefined);
  });
});
