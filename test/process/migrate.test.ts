// `npm run migrate` (node dist/migrate.js): the schema brought up to date without a server.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { POSTGRES_MIGRATIONS_TABLE, POSTGRES_SCHEMA_VERSION } from '../../src/adapters/postgres/migrations.js';
import { SQLITE_SCHEMA_VERSION } from '../../src/adapters/sqlite/migrations.js';
import { adminQuery, createTestSchema, describeWithPostgres, type TestSchema } from '../support/postgres.js';
import { COMPILED_MIGRATE, spawnServer, timeoutForProcesses } from '../support/server-process.js';
import { tempDir } from '../support/temp-dir.js';

const migrate = async (env: Record<string, string>) => {
  const run = spawnServer(env, COMPILED_MIGRATE);
  return { code: await run.exited, output: run.output() };
};

describe('npm run migrate', () => {
  it('creates and migrates a SQLite file, then exits 0; again, it has nothing to do', async function () {
    this.timeout(timeoutForProcesses(2));
    const dir = tempDir();
    try {
      const file = join(dir.path, 'data', 'petstore.db');
      for (let run = 0; run < 2; run += 1) {
        const { code, output } = await migrate({ PETSTORE_DB: file });
        expect(code, output).to.equal(0);
        expect(output).to.contain('"msg":"schema is up to date"');
        expect(output).to.contain(`"schemaVersion":${SQLITE_SCHEMA_VERSION}`);
      }
      const db = new Database(file, { readonly: true });
      expect(db.pragma('user_version', { simple: true })).to.equal(SQLITE_SCHEMA_VERSION);
      db.close();
    } finally {
      dir.remove();
    }
  });

  it('refuses an invalid configuration with exit code 1, naming the variable', async function () {
    this.timeout(timeoutForProcesses(1));
    const { code, output } = await migrate({ PETSTORE_DB: 'mysql://db/pets' });
    expect(code).to.equal(1);
    expect(output).to.contain('PETSTORE_DB must be');
  });
});

describeWithPostgres('npm run migrate on PostgreSQL', () => {
  let schema: TestSchema;
  beforeEach(async () => {
    schema = await createTestSchema();
  });
  afterEach(() => schema.drop());

  it('migrates a new schema and exits 0, never printing the password', async function () {
    this.timeout(timeoutForProcesses(1));
    const url = new URL(schema.url);
    url.password = 'migrate-secret-pw'; // the test server trusts local connections: any password does
    const { code, output } = await migrate({ PETSTORE_DB: url.toString() });
    expect(code, output).to.equal(0);
    expect(output).to.contain('"msg":"schema is up to date"');
    expect(output).not.to.contain('migrate-secret-pw');
    const rows = await adminQuery<{ version: number }>(`SELECT version FROM ${schema.name}.${POSTGRES_MIGRATIONS_TABLE}`);
    expect(rows.map((r) => r.version)).to.deep.equal(Array.from({ length: POSTGRES_SCHEMA_VERSION }, (_, i) => i + 1));
  });

  it('exits 1 with "could not migrate" when the server cannot be reached', async function () {
    this.timeout(timeoutForProcesses(1));
    const { code, output } = await migrate({ PETSTORE_DB: 'postgres://app:unreachable-pw@127.0.0.1:1/test' });
    expect(code).to.equal(1);
    expect(output).to.contain('"msg":"could not migrate"');
    expect(output).to.contain('StorageUnavailableError');
    expect(output).not.to.contain('unreachable-pw');
  });
});
