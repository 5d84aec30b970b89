// `petstore webhooks` on a SQLite file and on PostgreSQL: an endpoint's secret is printed once,
// by add, and by no other command. The deliveries are queued and attempted through the store, as
// the relay and the dispatcher do. The command line runs in this process; one test runs the
// compiled dist/cli.js, for what only a process shows: its exit code, stdout apart from stderr.
import { expect } from 'chai';
import type { Pool } from 'pg';
import { openPostgresPool } from '../../src/adapters/postgres/create-postgres-pool.js';
import { PostgresWebhookStore } from '../../src/adapters/postgres/postgres-webhook-store.js';
import { openSqliteDatabase } from '../../src/adapters/sqlite/open-sqlite-database.js';
import { SqliteWebhookStore } from '../../src/adapters/sqlite/sqlite-webhook-store.js';
import type { WebhookEndpointId, WebhookStore } from '../../src/domain/index.js';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../support/postgres.js';
import { commandsOnAFreshFile, loadCommands, runCommand } from '../support/command-line.js';
import { runCli, timeoutForProcesses } from '../support/server-process.js';

const EVENT_ID = '0b6f3c1e-7d2a-4e5f-9a8b-1c2d3e4f5a6b';
const SECRET = /whsec_[A-Za-z0-9+/]{32}/g;

/** Runs the command and answers its output, after checking its exit code. */
async function cli(env: Record<string, string>, args: string[], code = 0): Promise<string> {
  const result = await runCommand(['webhooks', ...args], env);
  expect(result.code, `${args.join(' ')}: ${result.stderr}`).to.equal(code);
  return result.stdout + result.stderr;
}

function webhooksOnADatabase(env: () => Record<string, string>, withStore: <T>(use: (store: WebhookStore) => Promise<T>) => Promise<T>) {
  it('adds endpoints printing each secret once, lists them without, shows and redelivers deliveries, removes an endpoint', async () => {
    const added = JSON.parse(
      await cli(env(), ['add', 'https://hooks.example/pets?team=a', '--events', 'petstore.pet.deleted,petstore.pet.created', '--json']),
    );
    expect(added).to.deep.include({
      id: 1,
      url: 'https://hooks.example/pets?team=a',
      eventTypes: ['petstore.pet.created', 'petstore.pet.deleted'],
      disabledAt: null,
    });
    expect(added.secret).to.match(/^whsec_[A-Za-z0-9+/]{32}$/);
    const text = await cli(env(), ['add', 'http://127.0.0.1:8/all']);
    expect(text).to.match(/^Added webhook endpoint 2 for http:\/\/127\.0\.0\.1:8\/all \(events: all\)\./);
    const secrets = [added.secret as string, ...(text.match(SECRET) ?? [])];
    expect(secrets, 'the second secret, printed once').to.have.length(2);
    expect(secrets[0]).not.to.equal(secrets[1]);

    const outputs: string[] = [];
    const listed = await cli(env(), ['list']);
    outputs.push(listed);
    expect(listed.split('\n')[0]).to.match(/^ID +URL +EVENTS +CREATED +DISABLED$/);
    expect(listed).to.match(/\n2 +http:\/\/127\.0\.0\.1:8\/all +all +\d{4}-[\d-]+T[\d:.]+Z +-\n/);
    const listedJson = await cli(env(), ['list', '--json']);
    outputs.push(listedJson);
    expect(JSON.parse(listedJson).map((e: { id: number; eventTypes: string[] }) => [e.id, e.eventTypes])).to.deep.equal([
      [1, ['petstore.pet.created', 'petstore.pet.deleted']],
      [2, []],
    ]);

    await withStore(async (store) => {
      await store.enqueue([{ id: EVENT_ID, type: 'petstore.pet.deleted', body: '{"specversion":"1.0"}' }], new Date());
      for (const due of await store.claimDue(new Date(), 10, 60_000, 10)) {
        await store.recordAttempt(due.claim, {
          at: new Date(),
          httpStatus: null,
          error: 'connect ECONNREFUSED 127.0.0.1:8',
          next: { status: 'failed' },
        });
      }
    });
    const deliveries = await cli(env(), ['deliveries', '2']);
    outputs.push(deliveries);
    expect(deliveries.split('\n')[0]).to.match(/^EVENT +TYPE +STATUS +ATTEMPTS +LAST RESULT +LAST ATTEMPT +NEXT ATTEMPT$/);
    expect(deliveries).to.contain(`${EVENT_ID}  petstore.pet.deleted  failed  1         connect ECONNREFUSED 127.0.0.1:8`);
    const redelivered = await cli(env(), ['redeliver', EVENT_ID]);
    outputs.push(redelivered);
    expect(redelivered).to.equal(`Event ${EVENT_ID} will be delivered again to 2 endpoints, from now on.\n`);
    const again = await cli(env(), ['deliveries', '1', '--json']);
    outputs.push(again);
    expect(JSON.parse(again)).to.have.length(1);
    expect(JSON.parse(again)[0]).to.deep.include({
      eventId: EVENT_ID,
      eventType: 'petstore.pet.deleted',
      status: 'pending',
      attempts: 0,
      endpointId: 1,
    });

    // Disabled (as a 410 Gone does), then enabled again by the operator.
    await withStore((store) => store.disable(2 as WebhookEndpointId, new Date()));
    expect(JSON.parse(await cli(env(), ['list', '--json']))[1].disabledAt).to.be.a('string');
    const enabled = await cli(env(), ['enable', '2']);
    outputs.push(enabled);
    expect(enabled).to.match(/^Webhook endpoint 2 \(http:\/\/127\.0\.0\.1:8\/all\) is active: it gets the events relayed from now on\./);
    expect(JSON.parse(await cli(env(), ['list', '--json']))[1].disabledAt).to.equal(null);
    expect(await cli(env(), ['enable', '2'])).to.equal(
      'Webhook endpoint 2 (http://127.0.0.1:8/all) is already enabled: nothing changed.\n',
    );
    outputs.push(await cli(env(), ['enable', '9'], 1));

    const removed = await cli(env(), ['remove', '1']);
    outputs.push(removed);
    expect(removed).to.contain('Webhook endpoint 1 is removed');
    outputs.push(await cli(env(), ['remove', '1'], 1));
    outputs.push(await cli(env(), ['deliveries', '1'], 1));
    outputs.push(await cli(env(), ['redeliver', 'no-such-event'], 1));
    const remaining = await cli(env(), ['list', '--json']);
    outputs.push(remaining);
    expect(JSON.parse(remaining).map((e: { id: number }) => e.id)).to.deep.equal([2]);

    for (const output of outputs) {
      for (const secret of secrets) expect(output).not.to.contain(secret.slice('whsec_'.length));
      expect(output).not.to.contain('whsec_');
    }
  });
}

describe('the petstore webhooks command', () => {
  const file = commandsOnAFreshFile();

  webhooksOnADatabase(
    () => file.env,
    async (use) => {
      const db = openSqliteDatabase(file.env['PETSTORE_DB']!);
      try {
        return await use(new SqliteWebhookStore(db));
      } finally {
        db.close();
      }
    },
  );

  it('refuses misuse with exit code 2, and a database that keeps nothing with 1', async () => {
    await cli(file.env, ['add', 'https://example.com/']);
    for (const args of [
      ['webhooks'],
      ['webhooks', 'ping'],
      ['webhooks', 'add'],
      ['webhooks', 'add', 'ftp://example.com/'],
      ['webhooks', 'add', 'https://user:hunter2@example.com/'],
      ['webhooks', 'add', 'https://example.com/', '--events', 'petstore.pet.eaten'],
      ['webhooks', 'add', 'https://example.com/', '--label', 'x'],
      ['webhooks', 'list', '--events', 'petstore.pet.created'],
      ['webhooks', 'remove'],
      ['webhooks', 'remove', 'abc'],
      ['webhooks', 'remove', '0'],
      ['webhooks', 'enable'],
      ['webhooks', 'enable', 'x'],
      ['webhooks', 'enable', '1', '--json'],
      ['webhooks', 'deliveries', '1', '2'],
      ['webhooks', 'redeliver'],
      ['webhooks', 'redeliver', 'has space'],
      // Options of other commands.
      ['webhooks', 'remove', '1', '--all'],
      ['webhooks', 'list', '--quiet'],
      ['webhooks', 'enable', '1', '-q'],
      ['webhooks', 'deliveries', '1', '--out', 'deliveries.txt'],
      ['webhooks', 'add', 'https://example.com/', '--from', 'x'],
      ['keys', 'list', '--events', 'x'],
    ]) {
      const { code, stderr } = await runCommand(args, file.env);
      expect(code, args.join(' ')).to.equal(2);
      expect(stderr, args.join(' ')).to.match(/^petstore: /);
      expect(stderr, 'a refused URL is not repeated with its password').not.to.contain('hunter2');
    }
    expect(
      JSON.parse(await cli(file.env, ['list', '--json'])).map((e: { id: number }) => e.id),
      'no misuse changed anything',
    ).to.deep.equal([1]);
    for (const db of ['memory', ':memory:']) {
      const { code, stderr } = await runCommand(['webhooks', 'list'], { PETSTORE_DB: db });
      expect(code).to.equal(1);
      expect(stderr).to.match(
        /^petstore: PETSTORE_DB is (memory \(nothing is kept after exit\)|sqlite :memory:), so webhooks stored there would be gone when this command ends\. /,
      );
    }
    const help = await runCommand(['help'], file.env);
    expect(help.stdout).to.contain('webhooks redeliver <event-id>');
    expect(help.stdout).to.contain('webhooks enable <id>');
  });

  it('as the compiled process: exits 0 with the answer alone on stdout, and 2 with the usage alone on stderr', async function () {
    this.timeout(timeoutForProcesses(2));
    const added = await runCli(['webhooks', 'add', 'https://example.com/hook', '--json'], file.env);
    expect([added.code, added.stderr]).to.deep.equal([0, '']);
    expect(JSON.parse(added.stdout)).to.deep.include({ id: 1, url: 'https://example.com/hook' });
    const misused = await runCli(['webhooks', 'remove', 'abc'], file.env);
    expect([misused.code, misused.stdout]).to.deep.equal([2, '']);
    expect(misused.stderr).to.match(/^petstore: webhooks remove needs the id of an endpoint/);
  });
});

describeWithPostgres('the petstore webhooks command on PostgreSQL', () => {
  before(loadCommands);
  let schema: TestSchema;
  beforeEach(async () => {
    schema = await createTestSchema();
  });
  afterEach(() => schema.drop());

  webhooksOnADatabase(
    () => ({ PETSTORE_DB: schema.url }),
    async (use) => {
      const pool: Pool = await openPostgresPool({ url: schema.url, poolSize: 2 });
      try {
        return await use(new PostgresWebhookStore(pool));
      } finally {
        await pool.end();
      }
    },
  );
});
