// Interface 1.1 adds a version to every pet (migration 4 on SQLite and PostgreSQL). A database
// made by the release before (the migrations before it only) and filled by it is upgraded in
// place: every pet survives with version 1, and can then be changed and deleted.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import * as O from 'fp-ts/lib/Option.js';
import { createPostgresPool } from '../../src/adapters/postgres/create-postgres-pool.js';
import { migratePostgres, POSTGRES_MIGRATIONS } from '../../src/adapters/postgres/migrations.js';
import { PostgresPetRepository } from '../../src/adapters/postgres/postgres-pet-repository.js';
import { SQLITE_MIGRATIONS } from '../../src/adapters/sqlite/migrations.js';
import { openSqliteDatabase } from '../../src/adapters/sqlite/open-sqlite-database.js';
import { SqlitePetRepository } from '../../src/adapters/sqlite/sqlite-pet-repository.js';
import type { PetId, PetRepository } from '../../src/domain/index.js';
import { draft } from '../contract/pet-repository.contract.js';
import { createTestSchema, describeWithPostgres } from '../support/postgres.js';
import { tempDir } from '../support/temp-dir.js';

// The schema of release 1.0.0: pets, idempotency keys, API keys.
const PREVIOUS_RELEASE_STEPS = 3;
const OLD_PETS = [
  ['Rex', 1, 'available'],
  ['Mittens', -7, 'pending'],
  ['Goldie', 3, 'sold'],
] as const;

/** What every upgraded store must show: the old pets at version 1, changeable, and new ids after theirs. */
async function expectUpgraded(repo: PetRepository): Promise<void> {
  const pets = await repo.list({ limit: 10 });
  expect(pets.map((p) => [p.name, p.categoryId, p.status])).to.deep.equal(OLD_PETS);
  for (const pet of pets) expect(await repo.findVersioned(pet.id)).to.deep.equal(O.some({ pet, version: 1 }));
  const first = pets[0]!;
  expect(O.isSome(await repo.update(first.id, 1, draft('Rex', 'pending')))).to.equal(true);
  expect(O.map((v: { version: number }) => v.version)(await repo.findVersioned(first.id))).to.deep.equal(O.some(2));
  expect(await repo.remove(pets[2]!.id, 1)).to.equal(true);
  const created = await repo.create(draft('New'));
  expect(created.id).to.be.greaterThan(pets[2]!.id);
  expect(await repo.findVersioned(created.id)).to.deep.equal(O.some({ pet: created, version: 1 }));
}

describe('pet versions: upgrading a database of the release before', () => {
  it('SQLite: keeps every pet, at version 1', async () => {
    const dir = tempDir();
    try {
      const file = join(dir.path, 'petstore.db');
      const old = new Database(file);
      for (const step of SQLITE_MIGRATIONS.slice(0, PREVIOUS_RELEASE_STEPS)) old.exec(step);
      old.pragma(`user_version = ${PREVIOUS_RELEASE_STEPS}`);
      const insert = old.prepare('INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)');
      for (const pet of OLD_PETS) insert.run(...pet);
      old.close();

      const db = openSqliteDatabase(file);
      try {
        expect(db.pragma('user_version', { simple: true })).to.equal(SQLITE_MIGRATIONS.length);
        await expectUpgraded(new SqlitePetRepository(db));
      } finally {
        db.close();
      }
    } finally {
      dir.remove();
    }
  });

  describeWithPostgres('PostgreSQL', () => {
    it('keeps every pet, at version 1', async () => {
      const schema = await createTestSchema();
      const pool = createPostgresPool({ url: schema.url, poolSize: 2 });
      try {
        expect(await migratePostgres(pool, POSTGRES_MIGRATIONS.slice(0, PREVIOUS_RELEASE_STEPS))).to.deep.equal({ from: 0, to: 3 });
        for (const pet of OLD_PETS) await pool.query('INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3)', [...pet]);
        expect(await migratePostgres(pool)).to.deep.equal({ from: PREVIOUS_RELEASE_STEPS, to: POSTGRES_MIGRATIONS.length });
        await expectUpgraded(new PostgresPetRepository(pool));
        expect(await new PostgresPetRepository(pool).findVersioned(999 as PetId)).to.deep.equal(O.none);
      } finally {
        await pool.end();
        await schema.drop();
      }
    });
  });
});
