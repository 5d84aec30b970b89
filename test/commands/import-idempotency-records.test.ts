// The idempotency records of an import, end to end: imported in-process with `importStore`,
// then retried over HTTP on a server of the same database. A record names a pet that may be in
// no pet line (deleted on the source): no pet created after the import may get its id, or the
// retry would answer with (and its ETag reach) another pet. And a record the service could not
// have stored is refused, naming its line.
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { writeFileSync } from 'node:fs';
import { expect } from 'chai';
import { apiKeyDigest } from '../../src/adapters/auth/api-key.js';
import { importStore } from '../../src/commands/import.js';
import type { DatabaseConfig } from '../../src/config/database-config.js';
import { callerIdOf } from '../../src/domain/index.js';
import { clientFor } from '../support/http-client.js';
import { createTestSchema, describeWithPostgres } from '../support/postgres.js';
import { tempDir } from '../support/temp-dir.js';
import { startTestServer, TEST_API_KEY } from '../support/test-server.js';

const SCOPE = callerIdOf(apiKeyDigest(TEST_API_KEY));
const KEY = 'retried-create-1';
const REX = { name: 'Rex', categoryId: 1, status: 'available' } as const;

const recordLine = (fields: Record<string, unknown> = {}): string =>
  JSON.stringify({
    kind: 'idempotencyRecord',
    scope: SCOPE,
    key: KEY,
    token: 'token-1',
    fingerprint: JSON.stringify([REX.name, REX.categoryId, REX.status]),
    pet: { id: 2, ...REX },
    expiresAt: '2099-01-01T10:00:00.000Z',
    leaseExpiresAt: '2099-01-01T09:01:00.000Z',
    ...fields,
  });
const petLine = (id: number, name: string, version?: number): string =>
  JSON.stringify({ kind: 'pet', id, name, categoryId: 7, status: 'pending', ...(version === undefined ? {} : { version }) });

/** Imports `lines` (a file of them) into `PETSTORE_DB`, in this process: the exit code and what it wrote on standard error. */
async function importLines(folder: string, lines: readonly string[], database: string): Promise<{ code: number; stderr: string }> {
  const file = join(folder, 'export.ndjson');
  writeFileSync(file, lines.map((line) => `${line}\n`).join(''));
  const stderr = new PassThrough();
  const told: string[] = [];
  stderr.on('data', (chunk: Buffer) => told.push(chunk.toString()));
  const code = await importStore(
    { file, quiet: true },
    { PETSTORE_DB: database },
    { stdout: new PassThrough(), stderr: stderr as unknown as NodeJS.WriteStream },
  );
  return { code, stderr: told.join('') };
}

interface Storage {
  /** PETSTORE_DB for the import, and the same database for the server. */
  readonly env: string;
  readonly config: DatabaseConfig;
  remove(): Promise<void>;
}

/** Imports `lines` into `storage`, then serves it: the retry of the record's request must answer its own pet, none created since. */
async function expectRetryAnswersItsOwnPet(folder: string, storage: Storage, lines: readonly string[]): Promise<void> {
  const imported = await importLines(folder, lines, storage.env);
  expect(imported, imported.stderr).to.deep.include({ code: 0 });
  const server = await startTestServer(storage.config);
  try {
    const api = clientFor(server.url, TEST_API_KEY);
    const created = [];
    for (const name of ['Mia', 'Tom']) created.push((await api.postJson('/v1/pets', { name, categoryId: 3 })).json as { id: number });
    expect(
      created.map(({ id }) => id),
      'no id that the record names is given again',
    ).to.deep.equal([3, 4]);
    const retry = await api.postJson('/v1/pets', REX, { 'Idempotency-Key': `"${KEY}"` });
    expect(retry.status).to.equal(201);
    expect(retry.headers).to.include({ 'idempotent-replayed': 'true', location: '/v1/pets/2', etag: '"2-1"' });
    expect(retry.json).to.deep.equal({ id: 2, ...REX });
    // The pet was deleted on the source: its ETag reaches no other pet.
    const patch = await api.send('/v1/pets/2', {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json', 'If-Match': '"2-1"' },
      body: JSON.stringify({ status: 'sold' }),
    });
    expect(patch.status).to.equal(404);
    for (const { id } of created) expect((await api.get(`/v1/pets/${id}`)).headers['etag']).to.equal(`"${id}-1"`);
  } finally {
    await server.close();
  }
}

function importedRecordsOn(name: string, open: (folder: string) => Promise<Storage>): void {
  describe(`the idempotency records an import writes, on ${name}`, () => {
    let folder: ReturnType<typeof tempDir>;
    let storage: Storage;
    beforeEach(async () => {
      folder = tempDir();
      storage = await open(folder.path);
    });
    afterEach(async () => {
      await storage.remove();
      folder.remove();
    });

    it("gives no pet created after the import the id of a record's pet that is in no pet line and above the header's ids issued", async () => {
      await expectRetryAnswersItsOwnPet(folder.path, storage, ['{"format":"petstore-export","version":2,"petIdsIssued":0}', recordLine()]);
    });

    it('does so for a version-1 export whose highest pet, which a record names, was deleted on the source', async () => {
      await expectRetryAnswersItsOwnPet(folder.path, storage, [
        '{"format":"petstore-export","version":1}',
        petLine(1, 'Kept'),
        recordLine(),
      ]);
    });
  });
}

importedRecordsOn('SQLite', (folder) => {
  const path = join(folder, 'pets.db');
  return Promise.resolve({ env: path, config: { kind: 'sqlite', path }, remove: () => Promise.resolve() });
});

describeWithPostgres('PostgreSQL', () => {
  importedRecordsOn('PostgreSQL', async () => {
    const schema = await createTestSchema();
    return { env: schema.url, config: { kind: 'postgres', url: schema.url, poolSize: 4 }, remove: () => schema.drop() };
  });
});

describe('an import of an idempotency record that the service could not have stored', () => {
  let folder: ReturnType<typeof tempDir>;
  beforeEach(() => {
    folder = tempDir();
  });
  afterEach(() => folder.remove());

  const refused = async (record: string): Promise<string> => {
    const database = join(folder.path, 'pets.db');
    const lines = ['{"format":"petstore-export","version":2,"petIdsIssued":2}', petLine(2, 'Rex', 1), record];
    const { code, stderr } = await importLines(folder.path, lines, database);
    expect(code, stderr).to.equal(1);
    expect(stderr).to.contain('Nothing was imported.');
    return stderr;
  };

  it("refuses a completed record whose fingerprint is not its pet's, naming the line and the fingerprint it must have", async () => {
    const stderr = await refused(recordLine({ fingerprint: JSON.stringify(['Tom', 3, 'available']) }));
    expect(stderr).to.contain(`export.ndjson line 3: /fingerprint must be that of /pet, ["Rex",1,"available"]. Nothing was imported.`);
  });

  it('refuses a fingerprint in another form than the one the service computes', async () => {
    const stderr = await refused(recordLine({ fingerprint: '[ "Rex", 1, "available" ]' }));
    expect(stderr).to.contain('line 3: /fingerprint must be that of /pet');
  });

  it('refuses a record in progress whose fingerprint is that of no pet', async () => {
    for (const fingerprint of ['fingerprint', '["Rex",1]', '["",1,"available"]', '["Rex",1,"lost"]']) {
      const stderr = await refused(recordLine({ pet: null, fingerprint }));
      expect(stderr, fingerprint).to.contain('line 3: /fingerprint must be the fingerprint of a pet, as ["Rex",1,"available"]');
    }
  });

  it('refuses a record whose lease outlasts it', async () => {
    const stderr = await refused(recordLine({ leaseExpiresAt: '2099-01-02T00:00:00.000Z' }));
    expect(stderr).to.contain('line 3: /leaseExpiresAt must not be after /expiresAt. Nothing was imported.');
  });

  it('imports a record in progress whose fingerprint is that of a pet', async () => {
    const database = join(folder.path, 'pets.db');
    const lines = ['{"format":"petstore-export","version":2,"petIdsIssued":0}', recordLine({ pet: null })];
    expect(await importLines(folder.path, lines, database)).to.deep.equal({ code: 0, stderr: '' });
  });
});
