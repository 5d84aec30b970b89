// Webhooks add two tables (the webhooks migration on SQLite and PostgreSQL). A database made
// with every step before it, and filled, is upgraded in place: its pets and API keys stay as
// they were, and webhooks work on it at once.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { createPostgresPool } from '../../src/adapters/postgres/create-postgres-pool.js';
import { migratePostgres, POSTGRES_MIGRATIONS } from '../../src/adapters/postgres/migrations.js';
import { PostgresWebhookStore } from '../../src/adapters/postgres/postgres-webhook-store.js';
import { SQLITE_MIGRATIONS } from '../../src/adapters/sqlite/migrations.js';
import { openSqliteDatabase } from '../../src/adapters/sqlite/open-sqlite-database.js';
import { SqliteWebhookStore } from '../../src/adapters/sqlite/sqlite-webhook-store.js';
import type { WebhookStore, WebhookUrl } from '../../src/domain/index.js';
import { createTestSchema, describeWithPostgres } from '../support/postgres.js';
import { tempDir } from '../support/temp-dir.js';

// Found by content, not by number, so that the test holds when migrations are renumbered at a merge.
const SQLITE_STEPS_BEFORE = SQLITE_MIGRATIONS.findIndex((sql) => sql.includes('CREATE TABLE webhook_endpoints'));
const POSTGRES_STEPS_BEFORE = POSTGRES_MIGRATIONS.findIndex((migration) => migration.name === 'webhooks');
const DIGEST = 'a'.repeat(64);

async function expectWebhooksWork(store: WebhookStore): Promise<void> {
  const endpoint = await store.add({
    url: 'https://hooks.example/x' as WebhookUrl,
    eventTypes: [],
    secret: 'whsec_AAAA',
    createdAt: new Date(0),
  });
  await store.enqueue([{ id: 'e', type: 'petstore.pet.created', body: '{}' }], new Date(0));
  expect((await store.deliveries(endpoint.id, 10)).map((d) => d.eventId)).to.deep.equal(['e']);
}

describe('webhooks: upgrading a database of the steps before', () => {
  it('SQLite: keeps pets and API keys, and adds the webhook tables', async () => {
    expect(SQLITE_STEPS_BEFORE).to.be.above(0);
    const dir = tempDir();
    try {
      const file = join(dir.path, 'petstore.db');
      const old = new Database(file);
      for (const step of SQLITE_MIGRATIONS.slice(0, SQLITE_STEPS_BEFORE)) old.exec(step);
      old.pragma(`user_version = ${SQLITE_STEPS_BEFORE}`);
      old.prepare(`INSERT INTO pets (name, category_id, status) VALUES ('Rex', 1, 'available')`).run();
      old.prepare(`INSERT INTO api_keys (digest, caller_id, label, created_at) VALUES (?, 'key-aaaa', 'kept', 0)`).run(DIGEST);
      old.close();

      const db = openSqliteDatabase(file);
      try {
        expect(db.pragma('user_version', { simple: true })).to.equal(SQLITE_MIGRATIONS.length);
        expect(db.prepare('SELECT name, version FROM pets').all()).to.deep.equal([{ name: 'Rex', version: 1 }]);
        expect(db.prepare('SELECT label FROM api_keys').all()).to.deep.equal([{ label: 'kept' }]);
        await expectWebhooksWork(new SqliteWebhookStore(db));
      } finally {
        db.close();
      }
    } finally {
      dir.remove();
    }
  });

  describeWithPostgres('PostgreSQL', () => {
    it('keeps pets and API keys, and adds the webhook tables', async () => {
      expect(POSTGRES_STEPS_BEFORE).to.be.above(0);
      const schema = await createTestSchema();
      const pool = createPostgresPool({ url: schema.url, poolSize: 2 });
      try {
        await migratePostgres(pool, POSTGRES_MIGRATIONS.slice(0, POSTGRES_STEPS_BEFORE));
        await pool.query(`INSERT INTO pets (name, category_id, status) VALUES ('Rex', 1, 'available')`);
        await pool.query(`INSERT INTO api_keys (digest, caller_id, label, created_at) VALUES ($1, 'key-aaaa', 'kept', now())`, [DIGEST]);
        expect(await migratePostgres(pool)).to.deep.equal({ from: POSTGRES_STEPS_BEFORE, to: POSTGRES_MIGRATIONS.length });
        expect((await pool.query('SELECT name, version::int AS version FROM pets')).rows).to.deep.equal([{ name: 'Rex', version: 1 }]);
        expect((await pool.query('SELECT label FROM api_keys')).rows).to.deep.equal([{ label: 'kept' }]);
        await expectWebhooksWork(new PostgresWebhookStore(pool));
      } finally {
        await pool.end();
        await schema.drop();
      }
    });
  });
});
