// Each pet created once per Idempotency-Key, even when storing it fails half-way: a fault is
// injected between the pet's insert and the key's completion (a trigger that refuses the
// completion, in the database itself). Then neither is stored, and a retry creates the one pet.
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { expect } from 'chai';
import { expectError } from '../support/expect-error.js';
import { clientFor } from '../support/http-client.js';
import { adminQuery, createTestSchema, describeWithPostgres, type TestSchema } from '../support/postgres.js';
import { tempDir } from '../support/temp-dir.js';
import { startTestServer, TEST_API_KEY, type TestServer } from '../support/test-server.js';
import { TOKENS } from '../../src/composition/tokens.js';

/** The database-specific part: how to install and remove the fault, and how many pets there are. */
interface InjectedFault {
  install(): void | Promise<void>;
  remove(): void | Promise<void>;
  countPets(): number | Promise<number>;
}

function idempotentCreationSurvives(fault: () => InjectedFault, server: () => TestServer): void {
  it('stores neither the pet nor the completion when the completion fails, and the retry creates the one pet', async () => {
    const api = clientFor(server().url, TEST_API_KEY);
    const headers = { 'Idempotency-Key': '"fault-between-the-steps"' };
    const body = { name: 'Exactly once', categoryId: 3 };
    expect((await api.postJson('/v1/pets', { name: 'Before', categoryId: 1 })).status).to.equal(201);
    const before = await fault().countPets();

    await fault().install();
    expectError(await api.postJson('/v1/pets', body, headers), 500, 'internal_error');
    expect(await fault().countPets(), 'the pet of the failed request is not stored').to.equal(before);
    await fault().remove();

    const retried = await api.postJson('/v1/pets', body, headers);
    expect(retried.status, retried.text).to.equal(201);
    expect(retried.headers['idempotent-replayed']).to.equal(undefined);
    const again = await api.postJson('/v1/pets', body, headers);
    expect(again.status).to.equal(201);
    expect(again.headers['idempotent-replayed']).to.equal('true');
    expect(again.json).to.deep.equal(retried.json);
    expect(await fault().countPets(), 'one pet for the key').to.equal(before + 1);
  });
}

describe('idempotent creation with a fault between the pet and its completion', () => {
  describe('on SQLite', () => {
    let dir: ReturnType<typeof tempDir>;
    let server: TestServer;
    let db: Database.Database;
    beforeEach(async () => {
      dir = tempDir();
      server = await startTestServer({ kind: 'sqlite', path: join(dir.path, 'petstore.db') });
      db = server.container.get<Database.Database>(TOKENS.SqliteDatabase);
    });
    afterEach(async () => {
      await server.close();
      dir.remove();
    });

    idempotentCreationSurvives(
      () => ({
        install: () =>
          void db.exec(`CREATE TRIGGER refuse_completion BEFORE UPDATE OF pet ON idempotency_keys WHEN NEW.pet IS NOT NULL
                        BEGIN SELECT RAISE(ABORT, 'injected: the completion fails'); END`),
        remove: () => void db.exec('DROP TRIGGER refuse_completion'),
        countPets: () => (db.prepare('SELECT count(*) AS n FROM pets').get() as { n: number }).n,
      }),
      () => server,
    );
  });

  describeWithPostgres('on PostgreSQL', () => {
    let schema: TestSchema;
    let server: TestServer;
    beforeEach(async () => {
      schema = await createTestSchema();
      server = await startTestServer({ kind: 'postgres', url: schema.url, poolSize: 4 });
    });
    afterEach(async () => {
      await server.close();
      await schema.drop();
    });

    idempotentCreationSurvives(
      () => ({
        install: async () => {
          await adminQuery(`CREATE FUNCTION ${schema.name}.refuse_completion() RETURNS trigger LANGUAGE plpgsql AS
                            $$ BEGIN RAISE EXCEPTION 'injected: the completion fails'; END $$`);
          await adminQuery(`CREATE TRIGGER refuse_completion BEFORE UPDATE OF pet ON ${schema.name}.idempotency_keys
                            FOR EACH ROW WHEN (NEW.pet IS NOT NULL) EXECUTE FUNCTION ${schema.name}.refuse_completion()`);
        },
        remove: async () => void (await adminQuery(`DROP TRIGGER refuse_completion ON ${schema.name}.idempotency_keys`)),
        countPets: async () => Number((await adminQuery<{ n: string }>(`SELECT count(*) AS n FROM ${schema.name}.pets`))[0]!.n),
      }),
      () => server,
    );
  });
});
