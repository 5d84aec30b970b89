// A store made by the migrations of a release before, filled as that release would have, then
// opened by this one, which upgrades it in place: what the upgrade tests of a migration share.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import type { Pool } from 'pg';
import { createPostgresPool } from '../../src/adapters/postgres/create-postgres-pool.js';
import { migratePostgres, POSTGRES_MIGRATIONS } from '../../src/adapters/postgres/migrations.js';
import { SQLITE_MIGRATIONS } from '../../src/adapters/sqlite/migrations.js';
import { openSqliteDatabase } from '../../src/adapters/sqlite/open-sqlite-database.js';
import { createTestSchema } from './postgres.js';
import { tempDir } from './temp-dir.js';

/** A SQLite file of the first `stepsBefore` migrations, `fill`ed, then opened by this release (every migration applied) for `check`. */
export async function upgradedSqlite(
  stepsBefore: number,
  fill: (old: Database.Database) => void,
  check: (db: Database.Database) => Promise<void>,
): Promise<void> {
  expect(stepsBefore).to.be.above(0);
  const dir = tempDir();
  try {
    const file = join(dir.path, 'petstore.db');
    const old = new Database(file);
    for (const step of SQLITE_MIGRATIONS.slice(0, stepsBefore)) old.exec(step);
    old.pragma(`user_version = ${stepsBefore}`);
    fill(old);
    old.close();
    const db = openSqliteDatabase(file);
    try {
      expect(db.pragma('user_version', { simple: true })).to.equal(SQLITE_MIGRATIONS.length);
      await check(db);
    } finally {
      db.close();
    }
  } finally {
    dir.remove();
  }
}

/** A PostgreSQL schema of the first `stepsBefore` migrations, `fill`ed, then migrated by this release for `check`. */
export async function upgradedPostgres(
  stepsBefore: number,
  fill: (pool: Pool) => Promise<unknown>,
  check: (pool: Pool) => Promise<void>,
): Promise<void> {
  expect(stepsBefore).to.be.above(0);
  const schema = await createTestSchema();
  const pool = createPostgresPool({ url: schema.url, poolSize: 2 });
  try {
    await migratePostgres(pool, POSTGRES_MIGRATIONS.slice(0, stepsBefore));
    await fill(pool);
    expect(await migratePostgres(pool)).to.deep.equal({ from: stepsBefore, to: POSTGRES_MIGRATIONS.length });
    await check(pool);
  } finally {
    await pool.end();
    await schema.drop();
  }
}
