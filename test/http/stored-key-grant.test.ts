// Stored keys with scopes and an expiry, over real HTTP on SQLite and PostgreSQL: a key holds
// the scopes it was given (403 insufficient_scope beyond them), is refused with 401
// invalid_token saying it expired from its expiry on, and its last use is recorded.
import { join } from 'node:path';
import { expect } from 'chai';
import { TOKENS } from '../../src/composition/tokens.js';
import type { DatabaseConfig } from '../../src/config/database-config.js';
import type { ApiKeyAdmin, ApiKeyLabel, Clock } from '../../src/domain/index.js';
import { clientFor } from '../support/http-client.js';
import { createTestSchema, describeWithPostgres } from '../support/postgres.js';
import { tempDir } from '../support/temp-dir.js';
import { startTestServer } from '../support/test-server.js';

const T0 = new Date('2030-01-01T00:00:00.000Z').getTime();
const DAY_MS = 86_400_000;

/** Reads `read` again until `done` holds (the write of last use is not awaited by the request), a bounded number of times. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let i = 0; i < 200 && !done(value); i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    value = await read();
  }
  return value;
}

function grantOverHttp(database: () => Promise<{ config: DatabaseConfig; cleanup: () => Promise<void> | void }>): void {
  it('holds its scopes, is refused as expired from its expiry on, and has its last use recorded', async () => {
    const { config, cleanup } = await database();
    let now = T0;
    const clock: Clock = { now: () => new Date(now) };
    const server = await startTestServer(config, { configure: (c) => c.rebind<Clock>(TOKENS.Clock).toConstantValue(clock) });
    try {
      const admin = await server.container.getAsync<ApiKeyAdmin>(TOKENS.ApiKeyAdmin);
      const { key, record } = await admin.create('reader' as ApiKeyLabel, { scopes: ['pets:read'], expiry: { after: DAY_MS } });
      const api = clientFor(server.url, key);
      expect((await api.get('/v1/pets')).status).to.equal(200);
      const write = await api.postJson('/v1/pets', { name: 'Rex', categoryId: 1 });
      expect(write.status).to.equal(403);
      expect(write.json).to.include({ code: 'insufficient_scope' });
      expect(write.headers['www-authenticate']).to.equal('Bearer realm="petstore", error="insufficient_scope", scope="pets:write"');
      const used = await eventually(
        () => admin.list(),
        (keys) => keys[0]?.lastUsedAt !== null,
      );
      expect(used.map((k) => k.lastUsedAt)).to.deep.equal([new Date(T0)]);

      now = record.expiresAt!.getTime();
      const expired = await api.get('/v1/pets');
      expect(expired.status).to.equal(401);
      expect(expired.json).to.include({ code: 'unauthorized' });
      expect((expired.json as { message: string }).message).to.contain('expired');
      expect(expired.headers['www-authenticate']).to.equal(
        'Bearer realm="petstore", error="invalid_token", error_description="the API key expired at 2030-01-02T00:00:00.000Z"',
      );
    } finally {
      await server.close();
      await cleanup();
    }
  });
}

describe('stored keys with scopes and an expiry, over HTTP', () => {
  describe('on SQLite', () =>
    grantOverHttp(() => {
      const dir = tempDir();
      return Promise.resolve({ config: { kind: 'sqlite', path: join(dir.path, 'petstore.db') }, cleanup: () => dir.remove() });
    }));

  describeWithPostgres('on PostgreSQL', () =>
    grantOverHttp(async () => {
      const schema = await createTestSchema();
      return { config: { kind: 'postgres', url: schema.url, poolSize: 2 }, cleanup: () => schema.drop() };
    }),
  );
});
