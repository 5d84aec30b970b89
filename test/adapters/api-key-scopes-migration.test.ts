// Stored keys gain scopes, an expiry and a last use (a migration on SQLite and PostgreSQL). A
// database made with every step before it, holding keys, is upgraded in place: each key keeps
// working, with every scope (those of later releases too), no expiry and no use recorded yet.
import { expect } from 'chai';
import { apiKeyDigest } from '../../src/adapters/auth/api-key.js';
import { StoredApiKeyVerifier } from '../../src/adapters/auth/stored-api-key-verifier.js';
import { POSTGRES_MIGRATIONS } from '../../src/adapters/postgres/migrations.js';
import { PostgresApiKeyStore } from '../../src/adapters/postgres/postgres-api-key-store.js';
import { SQLITE_MIGRATIONS } from '../../src/adapters/sqlite/migrations.js';
import { SqliteApiKeyStore } from '../../src/adapters/sqlite/sqlite-api-key-store.js';
import { ALL_SCOPES, type ApiKeyStore } from '../../src/domain/index.js';
import { acceptedAs, UNKNOWN } from '../support/credential-checks.js';
import { describeWithPostgres } from '../support/postgres.js';
import { upgradedPostgres, upgradedSqlite } from '../support/schema-upgrade.js';

// Found by content, not by number, so that the test holds when migrations are renumbered at a merge.
const SQLITE_STEPS_BEFORE = SQLITE_MIGRATIONS.findIndex((sql) => sql.includes('ADD COLUMN scopes'));
const POSTGRES_STEPS_BEFORE = POSTGRES_MIGRATIONS.findIndex((migration) => migration.sql.includes('ADD COLUMN scopes'));
const KEYS = ['kept-key-one-0123456789', 'kept-key-two-0123456789'] as const;
const CREATED = new Date('2026-11-20T10:00:00.000Z');

async function expectKeptKeys(store: ApiKeyStore): Promise<void> {
  const listed = await store.list();
  expect(
    listed.map(({ label, scopes, createdAt, expiresAt, revokedAt, lastUsedAt }) => ({
      label,
      scopes,
      createdAt,
      expiresAt,
      revokedAt,
      lastUsedAt,
    })),
  ).to.deep.equal([
    { label: 'active', scopes: 'all', createdAt: CREATED, expiresAt: null, revokedAt: null, lastUsedAt: null },
    { label: 'revoked', scopes: 'all', createdAt: CREATED, expiresAt: null, revokedAt: CREATED, lastUsedAt: null },
  ]);
  const verifier = new StoredApiKeyVerifier(store);
  expect(await verifier.verify(KEYS[0]), 'every scope').to.deep.equal(acceptedAs(listed[0]!.callerId, ALL_SCOPES));
  expect(await verifier.verify(KEYS[1])).to.deep.equal(UNKNOWN);
  await store.recordUse(listed[0]!.id, new Date('2026-11-30T08:00:00.000Z'));
  expect((await store.list())[0]!.lastUsedAt).to.deep.equal(new Date('2026-11-30T08:00:00.000Z'));
}

describe('API key scopes and expiry: upgrading a database of the steps before', () => {
  it('SQLite: keeps every key working, with every scope and no expiry', () =>
    upgradedSqlite(
      SQLITE_STEPS_BEFORE,
      (old) => {
        const insert = old.prepare('INSERT INTO api_keys (digest, caller_id, label, created_at, revoked_at) VALUES (?, ?, ?, ?, ?)');
        insert.run(apiKeyDigest(KEYS[0]), 'key-one', 'active', CREATED.getTime(), null);
        insert.run(apiKeyDigest(KEYS[1]), 'key-two', 'revoked', CREATED.getTime(), CREATED.getTime());
      },
      (db) => expectKeptKeys(new SqliteApiKeyStore(db)),
    ));

  describeWithPostgres('PostgreSQL', () => {
    it('keeps every key working, with every scope and no expiry', () =>
      upgradedPostgres(
        POSTGRES_STEPS_BEFORE,
        async (pool) => {
          const insert = 'INSERT INTO api_keys (digest, caller_id, label, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5)';
          await pool.query(insert, [apiKeyDigest(KEYS[0]), 'key-one', 'active', CREATED, null]);
          await pool.query(insert, [apiKeyDigest(KEYS[1]), 'key-two', 'revoked', CREATED, CREATED]);
        },
        (pool) => expectKeptKeys(new PostgresApiKeyStore(pool)),
      ));
  });
});
