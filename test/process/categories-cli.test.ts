// `petstore categories register-used` on a SQLite file, end to end: the command line runs in
// this process on the file a store of 1.2 left, with pets in categories that have no record.
import { join } from 'node:path';
import { expect } from 'chai';
import { SqliteCategoryRepository } from '../../src/adapters/sqlite/sqlite-category-repository.js';
import { openSqliteDatabase } from '../../src/adapters/sqlite/open-sqlite-database.js';
import { SqliteEventOutbox } from '../../src/adapters/sqlite/sqlite-event-outbox.js';
import { SqlitePetRepository } from '../../src/adapters/sqlite/sqlite-pet-repository.js';
import type { CategoryName, CategoryRepository, PetRepository } from '../../src/domain/index.js';
import { draft } from '../contract/pet-repository.contract.js';
import { commandsOnAFreshFile, runCommand } from '../support/command-line.js';

describe('the petstore categories command', () => {
  const file = commandsOnAFreshFile();

  async function onTheFile<T>(use: (stores: { pets: PetRepository; categories: CategoryRepository }) => Promise<T>): Promise<T> {
    const db = openSqliteDatabase(file.env['PETSTORE_DB']!);
    try {
      const outbox = new SqliteEventOutbox(db);
      return await use({ pets: new SqlitePetRepository(db, outbox), categories: new SqliteCategoryRepository(db, outbox) });
    } finally {
      db.close();
    }
  }

  it('registers every category the pets use, says which, then finds nothing to do', async () => {
    await onTheFile(async ({ pets }) => {
      for (const [name, category] of [
        ['Rex', 3],
        ['Tom', 1],
        ['Kit', 3],
      ] as const)
        await pets.create(draft(name, 'available', category));
    });
    const first = await runCommand(['categories', 'register-used'], file.env);
    expect([first.code, first.stderr]).to.deep.equal([0, '']);
    expect(first.stdout).to.equal('Registered 2 categories the pets use:\n  1  Category 1\n  3  Category 3\n');
    const again = await runCommand(['categories', 'register-used'], file.env);
    expect([again.code, again.stdout]).to.deep.equal([0, 'Every category the pets use is registered already: nothing to do.\n']);
    const names = await onTheFile(async ({ categories }) => (await categories.list({ limit: 10 })).map(({ id, name }) => [id, name]));
    expect(names).to.deep.equal([
      [1, 'Category 1'],
      [3, 'Category 3'],
    ]);
  });

  it('leaves out, naming it, an id whose name another category holds, and exits 1 until it is renamed', async () => {
    const taken = await onTheFile(async ({ pets, categories }) => {
      const outcome = await categories.create('Category 9' as CategoryName);
      if (outcome.kind !== 'created') throw new Error('not created');
      await pets.create(draft('Rex', 'available', 9));
      await pets.create(draft('Tom', 'available', 2));
      return outcome.category;
    });
    const refused = await runCommand(['categories', 'register-used'], file.env);
    expect(refused.code).to.equal(1);
    expect(refused.stdout).to.equal('Registered 1 category the pets use:\n  2  Category 2\n');
    expect(refused.stderr).to.contain('not registered, as another category holds the name "Category <id>": 9.');
    await onTheFile(({ categories }) => categories.rename(taken.id, 1, 'Strays' as CategoryName));
    const done = await runCommand(['categories', 'register-used'], file.env);
    expect([done.code, done.stdout]).to.deep.equal([0, 'Registered 1 category the pets use:\n  9  Category 9\n']);
  });

  it('refuses misuse with exit code 2, and a database that does not exist with 1', async () => {
    for (const args of [
      ['categories'],
      ['categories', 'register'],
      ['categories', 'register-used', 'x'],
      ['categories', 'register-used', '--json'],
    ]) {
      const result = await runCommand(args, file.env);
      expect(result.code, args.join(' ')).to.equal(2);
      expect(result.stderr).to.contain('Usage: petstore');
    }
    const absent = await runCommand(['categories', 'register-used'], { PETSTORE_DB: join(file.dir, 'none.db') });
    expect(absent.code).to.equal(1);
  });
});
