// No secret leaves the compiled server: a run with successful and failed authentication, the
// deprecated operation, errors of every kind and a storage fault (500), at the most verbose
// log level. No log line and no answer holds an API key, a credential or a stack trace.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { freePort } from '../support/child-server.js';
import { request, type TestResponse } from '../support/http-client.js';
import {
  baseUrlOf,
  type ServerProcess,
  spawnServer,
  stopIfRunning,
  timeoutForProcesses,
  waitForLogLines,
} from '../support/server-process.js';
import { tempDir } from '../support/temp-dir.js';

const KEYS = ['first-secret-key-0123456789', 'second-secret-key+/0123456789=='];
const WRONG_KEY = 'wrong-but-secret-key-0123456789';
const BASIC = Buffer.from(`admin:${KEYS[0]}`).toString('base64');
const STACK_FRAME = /\bat .+:\d+:\d+|\.[jt]s:\d+|node_modules|"stack"/;

describe('secrets in logs and answers of the compiled server', () => {
  let dir: ReturnType<typeof tempDir>;
  let server: ServerProcess | undefined;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(async () => {
    await stopIfRunning(server);
    dir.remove();
  });

  it('logs and answers no API key, Authorization header or stack trace, through failed and successful auth and a 500', async function () {
    this.timeout(timeoutForProcesses(1));
    const file = join(dir.path, 'petstore.db');
    server = spawnServer({ PETSTORE_DB: file, PETSTORE_API_KEYS: KEYS.join(','), PETSTORE_LOG_LEVEL: 'trace' });
    const origin = new URL(await baseUrlOf(server)).origin;
    const answers: TestResponse[] = [];
    const send = async (path: string, authorization?: string, options: { method?: string; body?: string } = {}) => {
      const headers: Record<string, string> = authorization === undefined ? {} : { Authorization: authorization };
      if (options.body !== undefined) headers['Content-Type'] = 'application/json';
      const res = await request(origin, path, { ...options, headers });
      answers.push(res);
      return res;
    };

    // Successful authentication, with each key, on every operation.
    for (const key of KEYS) {
      expect((await send('/v1/pets', `Bearer ${key}`, { method: 'POST', body: '{"name":"Secretive","categoryId":1}' })).status).to.equal(
        201,
      );
      expect((await send('/v1/pets', `bearer ${key}`)).status).to.equal(200);
      expect((await send('/v1/pets/1', `Bearer ${key}`)).status).to.equal(200);
      expect((await send('/metrics', `Bearer ${key}`)).status).to.equal(200);
    }
    // Failed authentication, in every way.
    for (const authorization of [
      undefined,
      '',
      `Bearer ${WRONG_KEY}`,
      `Basic ${BASIC}`,
      `Bearer ${KEYS[0]} trailing`,
      `Token ${KEYS[1]}`,
      KEYS[0]!,
    ]) {
      expect((await send('/v1/pets', authorization)).status, String(authorization)).to.equal(401);
      expect((await send('/v1/pets/1', authorization)).status, String(authorization)).to.equal(401);
    }
    // Errors after authentication: invalid input, not found, wrong method.
    expect((await send('/v1/pets?limit=0', `Bearer ${KEYS[0]}`)).status).to.equal(400);
    expect((await send('/v1/pets', `Bearer ${KEYS[0]}`, { method: 'POST', body: '{"name":' })).status).to.equal(400);
    expect((await send('/v1/pets/999', `Bearer ${KEYS[1]}`)).status).to.equal(404);
    expect((await send('/v1/pets', `Bearer ${KEYS[1]}`, { method: 'DELETE' })).status).to.equal(405);

    // A storage fault: the table disappears under the running server, then comes back.
    const db = new Database(file);
    try {
      db.exec('ALTER TABLE pets RENAME TO pets_away');
      expect((await send('/v1/pets', `Bearer ${KEYS[0]}`)).status).to.equal(500);
      expect((await send('/v1/pets', `Bearer ${KEYS[1]}`, { method: 'POST', body: '{"name":"Lost","categoryId":1}' })).status).to.equal(
        500,
      );
      db.exec('ALTER TABLE pets_away RENAME TO pets');
    } finally {
      db.close();
    }
    expect((await send('/v1/pets', `Bearer ${KEYS[0]}`)).status, 'serving again').to.equal(200);

    server.child.kill('SIGTERM');
    expect(await server.exited).to.equal(0);

    const output = server.output();
    const lines = output.split('\n').filter((line) => line !== '');
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    // The run did log what this test searches: requests of both callers, both faults, the stop.
    expect(entries.filter((e) => e['msg'] === 'request')).to.have.length(answers.length);
    expect(new Set(entries.map((e) => e['caller']).filter((caller) => caller !== undefined)).size).to.equal(2);
    expect(entries.filter((e) => String(e['msg']).startsWith('unexpected fault in'))).to.have.length(2);
    expect(entries.at(-1)?.['msg']).to.equal('stopped');

    const secrets = [...KEYS, WRONG_KEY, BASIC, Buffer.from(KEYS[0]!).toString('base64')];
    for (const line of lines) {
      for (const secret of secrets) expect(line, 'a log line holds a key').not.to.contain(secret);
      expect(line).not.to.match(/bearer|authorization|basic /i);
      expect(line).not.to.match(STACK_FRAME);
    }
    for (const res of answers) {
      const everything = `${JSON.stringify(res.headers)}\n${res.text}`;
      for (const secret of secrets) expect(everything, 'an answer holds a key').not.to.contain(secret);
      expect(everything).not.to.match(STACK_FRAME);
      // Answers do say "Bearer": the challenge (WWW-Authenticate) and how to send a key.
    }
  });

  for (const [form, url, secret] of [
    ['a user and password', 'nats://alice:N4tsPassw0rd@127.0.0.1:PORT', 'N4tsPassw0rd'],
    ['a token', 'nats://T0kenS3cret@127.0.0.1:PORT', 'T0kenS3cret'],
  ] as const) {
    it(`logs no NATS credential given as ${form} in its URL, not even when NATS cannot be reached`, async function () {
      this.timeout(timeoutForProcesses(1));
      // Nothing listens there: the outage is logged, naming NATS.
      const natsUrl = url.replace('PORT', String(await freePort()));
      server = spawnServer({ PETSTORE_DB: 'memory', PETSTORE_NATS_URL: natsUrl, PETSTORE_LOG_LEVEL: 'trace' });
      await baseUrlOf(server);
      const lines = await waitForLogLines(server, (entries) =>
        entries.some((e) => e['msg'] === 'NATS unreachable: events wait in the outbox until it answers'),
      );
      expect(lines.find((e) => String(e['msg']).startsWith('NATS unreachable'))?.['nats']).to.match(
        /^nats nats:\/\/[^:@]+@127\.0\.0\.1:\d+ \(stream PETSTORE\)$/,
      );
      server.child.kill('SIGTERM');
      expect(await server.exited).to.equal(0);
      expect(server.output()).to.contain('"msg":"stopped"').and.not.to.contain(secret);
    });
  }
});
