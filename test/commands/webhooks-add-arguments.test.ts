// `webhooks add`'s arguments, checked in-process before the database is opened: a URL on port 0
// (which no server listens on, so that every delivery would fail and be retried for hours) and
// an --events value that names no event type (which would subscribe the endpoint to every type)
// are misuses, exit 2, and nothing is stored.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { webhooks, type WebhooksRequest } from '../../src/commands/webhooks.js';
import { WebhookUrl, webhookUrlProblem } from '../../src/domain/index.js';
import { tempDir } from '../support/temp-dir.js';

describe('a webhook URL on port 0', () => {
  it('is refused, however the 0 is written', () => {
    for (const url of ['http://127.0.0.1:0/hook', 'https://hooks.example:0/', 'http://hooks.example:00/pets', 'http://[::1]:0/']) {
      expect(webhookUrlProblem(url), url).to.equal(
        'must not use port 0, which no server listens on: name the port the receiver listens on (1 to 65535)',
      );
      expect(WebhookUrl.is(url), url).to.equal(false);
    }
  });

  it('is not confused with a URL on its default port, or on a port that only starts or ends with 0', () => {
    for (const url of ['http://hooks.example/pets', 'https://hooks.example:443/', 'http://127.0.0.1:8080/hook', 'http://127.0.0.1:10/']) {
      expect(webhookUrlProblem(url), url).to.equal(undefined);
    }
  });
});

describe('webhooks add, in-process', () => {
  let dir: ReturnType<typeof tempDir>;
  let database: string;
  let said: { out: string; err: string };
  const output = { out: (text: string) => void (said.out += text), err: (text: string) => void (said.err += text) };
  beforeEach(() => {
    dir = tempDir();
    database = join(dir.path, 'pets.db');
    said = { out: '', err: '' };
  });
  afterEach(() => dir.remove());

  const add = (url: string, events: string | undefined): Promise<number> =>
    webhooks({ action: 'add', url, events, json: false } satisfies WebhooksRequest, { PETSTORE_DB: database }, output);

  it('refuses a URL on port 0 as a misuse, before the database is created', async () => {
    expect(await add('http://127.0.0.1:0/hook', 'petstore.pet.created')).to.equal(2);
    expect(said.err).to.equal(
      'petstore: the webhook URL must not use port 0, which no server listens on: name the port the receiver listens on (1 to 65535)\n',
    );
    expect(existsSync(database)).to.equal(false);
  });

  it('refuses an --events value that names no event type, rather than subscribing to every type', async () => {
    for (const events of ['', ' ', ',', ' , ,']) {
      said = { out: '', err: '' };
      expect(await add('http://127.0.0.1:8080/hook', events), JSON.stringify(events)).to.equal(2);
      expect(said.err).to.equal(
        `petstore: --events ${JSON.stringify(events)} names no event type: give one or more of ` +
          'petstore.pet.created, petstore.pet.updated, petstore.pet.deleted, petstore.category.created, petstore.category.updated, petstore.category.deleted, petstore.order.created, petstore.order.updated, separated by commas, or leave --events out for every type\n',
      );
      expect(said.out).to.equal('');
    }
    expect(existsSync(database)).to.equal(false);
  });

  it('subscribes to every type without --events, and to the types --events names', async () => {
    expect(await add('http://127.0.0.1:8080/all', undefined)).to.equal(0);
    expect(said.out).to.match(/^Added webhook endpoint 1 for http:\/\/127\.0\.0\.1:8080\/all \(events: all\)\./);
    said = { out: '', err: '' };
    expect(await add('http://127.0.0.1:8080/some', ' petstore.pet.deleted, ')).to.equal(0);
    expect(said.out).to.match(/^Added webhook endpoint 2 for http:\/\/127\.0\.0\.1:8080\/some \(events: petstore\.pet\.deleted\)\./);
  });
});
