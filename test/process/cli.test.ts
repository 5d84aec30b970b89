// The `petstore` command (dist/cli.js, the package's bin): serve, migrate, and the API keys
// stored in the database, managed while a server runs on the same database. Servers run as the
// compiled process; the commands run in the test's own (commands/command-line.ts), but in one
// test of the compiled command: its exit codes, and its stdout apart from its stderr.
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { SQLITE_SCHEMA_VERSION } from '../../src/adapters/sqlite/migrations.js';
import { loadCommands, runCommand } from '../support/command-line.js';
import { clientFor } from '../support/http-client.js';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../support/postgres.js';
import {
  baseUrlOf,
  COMPILED_CLI,
  runCli,
  type ServerProcess,
  spawnServer,
  stopIfRunning,
  timeoutForProcesses,
  waitForOutput,
} from '../support/server-process.js';
import { tempDir } from '../support/temp-dir.js';

const CONFIGURED_KEY = 'configured-key-0123456789';
const callerIdOf = (key: string) => `key-${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;

interface CreatedKey {
  key: string;
  id: number;
  label: string;
  callerId: string;
  scopes: 'all' | string[];
  createdAt: string;
  expiresAt: string | null;
  revokedAt: null;
  lastUsedAt: null;
}

/** Runs `keys create --json` and answers what it printed. */
const createKey = async (env: Record<string, string>, label: string): Promise<CreatedKey> => {
  const { code, stdout, stderr } = await runCommand(['keys', 'create', '--label', label, '--json'], env);
  expect(code, stderr).to.equal(0);
  return JSON.parse(stdout) as CreatedKey;
};

/** Key rotation through the command line against a server running on the same database. */
function rotationWhileServing(env: () => Record<string, string>, start: (s: ServerProcess) => void) {
  it('creates keys that a running server accepts at once, several at a time, and refuses a revoked key at once', async function () {
    this.timeout(timeoutForProcesses(1));
    const server = spawnServer({ ...env(), PETSTORE_API_KEYS: CONFIGURED_KEY }, COMPILED_CLI, ['serve']);
    start(server);
    const origin = new URL(await baseUrlOf(server)).origin;
    const status = async (key: string) => (await clientFor(origin, key).get('/v1/pets')).status;

    const old = await createKey(env(), 'old key');
    expect(old.callerId).to.equal(callerIdOf(old.key));
    expect(await status(old.key), 'a key created while the server runs').to.equal(200);

    const next = await createKey(env(), 'new key');
    expect([await status(old.key), await status(next.key)], 'both keys during the rotation').to.deep.equal([200, 200]);

    const revoked = await runCommand(['keys', 'revoke', String(old.id)], env());
    expect(revoked.code, revoked.stderr).to.equal(0);
    expect(revoked.stdout).to.contain(`API key ${old.id}`);
    expect(await status(old.key), 'the revoked key, on the very next request').to.equal(401);
    expect(await status(next.key)).to.equal(200);
    expect(await status(CONFIGURED_KEY), 'keys of PETSTORE_API_KEYS keep working').to.equal(200);

    const listed = await runCommand(['keys', 'list', '--json'], env());
    expect(listed.code, listed.stderr).to.equal(0);
    const records = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
    expect(records.map((r) => [r['id'], r['label'], r['callerId'], r['revokedAt'] === null])).to.deep.equal([
      [old.id, 'old key', old.callerId, false],
      [next.id, 'new key', next.callerId, true],
    ]);
    expect(listed.stdout).not.to.contain(old.key);
    expect(listed.stdout).not.to.contain(next.key);
    expect(server.output(), 'the server never logs a key').not.to.contain(next.key);
  });
}

describe('the petstore command', () => {
  before(loadCommands);
  let dir: ReturnType<typeof tempDir>;
  let running: ServerProcess | undefined;
  let env: Record<string, string>;
  beforeEach(() => {
    dir = tempDir();
    env = { PETSTORE_DB: join(dir.path, 'petstore.db') };
  });
  afterEach(async () => {
    await stopIfRunning(running);
    running = undefined;
    dir.remove();
  });

  rotationWhileServing(
    () => env,
    (s) => (running = s),
  );

  it('lists keys in a table, without the keys, and stores each only as its SHA-256', async () => {
    const created = await runCommand(['keys', 'create', '--label', 'deploy bot'], env);
    expect(created.code, created.stderr).to.equal(0);
    const key = /^ {2}([A-Za-z0-9_-]{43})$/m.exec(created.stdout)?.[1];
    expect(key, created.stdout).to.be.a('string');
    expect(created.stdout).to.match(/^Created API key 1 \("deploy bot"\), caller key-[0-9a-f]{16}\./);
    const listed = await runCommand(['keys', 'list'], env);
    expect(listed.code).to.equal(0);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines[0]).to.match(/^ID +LABEL +CALLER +SCOPES +CREATED +EXPIRES +LAST USED +REVOKED$/);
    expect(lines[1]).to.match(
      new RegExp(`^1 +deploy bot +${callerIdOf(key!)} +all +\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\dZ +never +never +-$`),
    );
    expect(listed.stdout).not.to.contain(key!);
    const db = new Database(env['PETSTORE_DB'], { readonly: true });
    const rows = db.prepare('SELECT * FROM api_keys').all() as Array<Record<string, unknown>>;
    db.close();
    expect(JSON.stringify(rows)).not.to.contain(key!);
    expect(rows[0]!['digest']).to.equal(createHash('sha256').update(key!).digest('hex'));
  });

  it('revokes a key once: again, it answers the first revocation; an unknown id fails with 1', async () => {
    const { id } = await createKey(env, '');
    const first = await runCommand(['keys', 'revoke', String(id)], env);
    const again = await runCommand(['keys', 'revoke', String(id)], env);
    expect([first.code, again.code]).to.deep.equal([0, 0]);
    expect(again.stdout).to.equal(first.stdout);
    const unknown = await runCommand(['keys', 'revoke', '99'], env);
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr).to.contain('no stored API key has id 99');
  });

  it('does not generate a key at start when a stored key is active, and does when none is', async function () {
    this.timeout(timeoutForProcesses(2));
    const stored = await createKey(env, 'only');
    running = spawnServer(env, COMPILED_CLI, ['serve']);
    const origin = new URL(await baseUrlOf(running)).origin;
    expect((await clientFor(origin, stored.key).get('/v1/pets')).status).to.equal(200);
    running.child.kill('SIGTERM');
    expect(await running.exited).to.equal(0);
    // Read once the process has ended: the key would be printed under the listening line, a moment after it.
    expect(running.output()).not.to.contain('generated API key');

    expect((await runCommand(['keys', 'revoke', String(stored.id)], env)).code).to.equal(0);
    running = spawnServer(env, COMPILED_CLI, ['serve']);
    await baseUrlOf(running);
    await waitForOutput(running, /generated API key/);
  });

  it('migrates the database as npm run migrate does', async () => {
    const { code, stderr } = await runCommand(['migrate'], { ...env, PETSTORE_LOG_LEVEL: 'silent' });
    expect(code, stderr).to.equal(0);
    const db = new Database(env['PETSTORE_DB'], { readonly: true });
    expect(db.pragma('user_version', { simple: true })).to.equal(SQLITE_SCHEMA_VERSION);
    db.close();
  });

  it('as the compiled process: exits 0 with a key alone on stdout, and 1 with the failure alone on stderr', async function () {
    this.timeout(timeoutForProcesses(2));
    const created = await runCli(['keys', 'create', '--json'], env);
    expect([created.code, created.stderr]).to.deep.equal([0, '']);
    expect(JSON.parse(created.stdout)).to.deep.include({ id: 1, label: '' });
    const unknown = await runCli(['keys', 'revoke', '99'], env);
    expect([unknown.code, unknown.stdout, unknown.stderr]).to.deep.equal([1, '', 'petstore: no stored API key has id 99\n']);
  });

  it('refuses misuse with exit code 2 and the usage, and keys on a database that keeps nothing with 1', async () => {
    for (const args of [
      ['keys'],
      ['keys', 'drop'],
      ['keys', 'revoke'],
      ['keys', 'revoke', 'abc'],
      ['keys', 'list', 'extra'],
      ['serve', '--label', 'x'],
      ['frobnicate'],
      ['keys', 'create', '--colour'],
    ]) {
      const { code, stderr } = await runCommand(args, env);
      expect(code, args.join(' ')).to.equal(2);
      expect(stderr, args.join(' ')).to.match(/^petstore: /);
    }
    const label = await runCommand(['keys', 'create', '--label', 'line\nbreak'], env);
    expect(label.code).to.equal(2);
    expect(label.stderr).to.contain('--label must not contain control characters');
    expect(readdirSync(dir.path), 'arguments are checked before the database is opened, or made').to.deep.equal([]);
    for (const db of ['memory', ':memory:']) {
      const { code, stderr } = await runCommand(['keys', 'create'], { PETSTORE_DB: db });
      expect(code).to.equal(1);
      expect(stderr).to.match(
        /^petstore: PETSTORE_DB is (memory \(nothing is kept after exit\)|sqlite :memory:), so keys stored there would be gone when this command ends\. /,
      );
    }
    const help = await runCommand(['help'], env);
    expect(help.code).to.equal(0);
    expect(help.stdout).to.contain('keys revoke <id>');
  });

  it('refuses with 1 a SQLite file that does not exist, creating nothing; keys create and webhooks add create it', async () => {
    const folder = join(dir.path, 'typo');
    const missing = { PETSTORE_DB: join(folder, 'petstore.db') };
    for (const args of [
      ['keys', 'list'],
      ['keys', 'revoke', '1'],
      ['webhooks', 'list'],
      ['webhooks', 'remove', '1'],
      ['webhooks', 'enable', '1'],
      ['webhooks', 'deliveries', '1'],
      ['webhooks', 'redeliver', 'some-event'],
      ['export', '--out', join(dir.path, 'pets.ndjson')],
      ['backup', join(dir.path, 'copy.db')],
      ['copy', '--from', missing.PETSTORE_DB, '--to', join(dir.path, 'target.db')],
    ]) {
      const { code, stdout, stderr } = await runCommand(args, missing);
      const setting = args[0] === 'copy' ? '--from' : 'PETSTORE_DB';
      expect([code, stdout], args.join(' ')).to.deep.equal([1, '']);
      expect(stderr, args.join(' ')).to.equal(
        `petstore: ${setting} names sqlite ${missing.PETSTORE_DB}, which does not exist. Point ${setting} at the database of the server ` +
          '(a SQLite file or a postgres:// URL); the server creates its file at its first start.\n',
      );
      expect(readdirSync(dir.path), `${args.join(' ')}: no folder, database or output made`).to.deep.equal([]);
    }
    const key = await createKey(missing, 'before the first start');
    const added = await runCommand(['webhooks', 'add', 'https://example.com/hook', '--json'], missing);
    expect(added.code, added.stderr).to.equal(0);
    const keys = await runCommand(['keys', 'list', '--json'], missing);
    expect(keys.code, keys.stderr).to.equal(0);
    expect(JSON.parse(keys.stdout).map((k: { id: number }) => k.id)).to.deep.equal([key.id]);
  });

  it('fails with 1, never printing the password, when PostgreSQL cannot be reached', async () => {
    const { code, stderr } = await runCommand(['keys', 'list'], { PETSTORE_DB: 'postgres://app:cli-secret-pw@127.0.0.1:1/pets' });
    expect(code).to.equal(1);
    expect(stderr).to.contain('could not use the database');
    expect(stderr).not.to.contain('cli-secret-pw');
  });
});

describeWithPostgres('the petstore command on PostgreSQL', () => {
  before(loadCommands);
  let schema: TestSchema;
  let running: ServerProcess | undefined;
  beforeEach(async () => {
    schema = await createTestSchema();
  });
  afterEach(async () => {
    await stopIfRunning(running);
    running = undefined;
    await schema.drop();
  });

  rotationWhileServing(
    () => ({ PETSTORE_DB: schema.url }),
    (s) => (running = s),
  );
});
