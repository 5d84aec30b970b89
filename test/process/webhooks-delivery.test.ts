// Webhooks end to end, as an operator sets them up: an endpoint added with `petstore webhooks
// add` to the database of a server that is already running gets the change events of that
// server, signed in the Standard Webhooks format, and a delivery its receiver refused comes
// again with the same webhook-id until the receiver takes it. The server is the compiled
// process; the webhooks commands run in the test's own.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_RETRY_DELAYS_MS, WEBHOOK_RETRY_JITTER } from '../../src/domain/webhook-retry.js';
import { loadCommands, runCommand } from '../support/command-line.js';
import { clientFor } from '../support/http-client.js';
import { baseUrlOf, type ServerProcess, spawnServer, stopIfRunning, timeoutForProcesses } from '../support/server-process.js';
import { tempDir } from '../support/temp-dir.js';

const KEY = 'webhooks-delivery-key-0123456789';

interface Attempt {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly answered: number;
}

/** A receiver that answers each attempt with the next of `statuses` (the last one from then on). */
async function startReceiver(statuses: readonly number[]): Promise<{ url: string; attempts: Attempt[]; server: Server }> {
  const attempts: Attempt[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answered = statuses[Math.min(attempts.length, statuses.length - 1)]!;
      attempts.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answered });
      res.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/pets`, attempts, server };
}

async function eventually(check: () => boolean, what: string, attempts = 400): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect.fail(`never happened: ${what}`);
}

describe('webhooks from the compiled server', () => {
  before(loadCommands);
  let dir: ReturnType<typeof tempDir>;
  let server: ServerProcess | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;

  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(async () => {
    await stopIfRunning(server);
    receiver?.server.close();
    dir.remove();
  });

  it('delivers to an endpoint added while the server runs, signed, again with the same webhook-id after a 503, until a 2xx', async function () {
    // The server's start, and the retry after the 503: it comes seconds later, by design.
    this.timeout(timeoutForProcesses(1) + WEBHOOK_RETRY_DELAYS_MS[0]! * (1 + WEBHOOK_RETRY_JITTER));
    const env = { PETSTORE_DB: join(dir.path, 'petstore.db'), PETSTORE_API_KEYS: KEY };
    server = spawnServer(env);
    const api = clientFor(await baseUrlOf(server), KEY);
    receiver = await startReceiver([503, 204]);

    const added = await runCommand(['webhooks', 'add', receiver.url, '--events', 'petstore.pet.created', '--json'], env);
    expect(added.code, added.stderr).to.equal(0);
    const { secret, id: endpointId } = JSON.parse(added.stdout) as { secret: string; id: number };

    const created = await api.postJson('/v1/pets', { name: 'Hooked', categoryId: 3 });
    expect(created.status).to.equal(201);
    const pet = created.json as { id: number };
    await eventually(() => receiver!.attempts.some((attempt) => attempt.answered === 204), 'a delivery answered 2xx');

    const attempts = receiver.attempts;
    expect(attempts.map((attempt) => attempt.answered)).to.deep.equal([503, 204]);
    const verifier = new Webhook(secret);
    const ids = new Set<string>();
    for (const { headers, body } of attempts) {
      // verify() throws unless the signature is right for this id, timestamp and body.
      const event = verifier.verify(body, headers as Record<string, string>) as {
        id: string;
        type: string;
        subject: string;
        data: unknown;
      };
      expect(headers['content-type']).to.match(/^application\/cloudevents\+json/);
      expect(event).to.include({ type: 'petstore.pet.created', subject: String(pet.id) });
      expect(event.data).to.deep.equal(created.json);
      expect(headers['webhook-id']).to.equal(event.id);
      ids.add(headers['webhook-id'] as string);
    }
    expect(ids.size, 'the same webhook-id on every attempt').to.equal(1);

    const deliveries = await runCommand(['webhooks', 'deliveries', String(endpointId), '--json'], env);
    expect(deliveries.code, deliveries.stderr).to.equal(0);
    expect(JSON.parse(deliveries.stdout)).to.have.length(1).and.to.have.nested.property('[0].status', 'delivered');
    expect(deliveries.stdout + deliveries.stderr).not.to.contain(secret);
  });
});
