// export --all, import and copy carry the categories (format version 4) with their ids and
// versions; a file of format version 3 imports as before, and may hold no category. On real
// SQLite files and a real PostgreSQL schema, the commands run in this process.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { openPostgresPool } from '../../src/adapters/postgres/create-postgres-pool.js';
import { PostgresCategoryRepository } from '../../src/adapters/postgres/postgres-category-repository.js';
import { openSqliteDatabase } from '../../src/adapters/sqlite/open-sqlite-database.js';
import { SqliteCategoryRepository } from '../../src/adapters/sqlite/sqlite-category-repository.js';
import { SqlitePetRepository } from '../../src/adapters/sqlite/sqlite-pet-repository.js';
import type { CategoryId, CategoryName, CategoryRepository } from '../../src/domain/index.js';
import { draft } from '../contract/pet-repository.contract.js';
import { loadCommands, runCommand } from '../support/command-line.js';
import { createTestSchema, describeWithPostgres } from '../support/postgres.js';
import { tempDir } from '../support/temp-dir.js';

/** Every category of the database `db` names, with its version, in id order. */
async function categoriesIn(db: string): Promise<unknown[]> {
  return onCategories(db, async (categories) => {
    const listed = await categories.list({ limit: 100 });
    return Promise.all(listed.map(async ({ id }) => categories.findVersioned(id)));
  });
}

async function onCategories<T>(db: string, use: (categories: CategoryRepository) => Promise<T>): Promise<T> {
  if (db.startsWith('postgres')) {
    const pool = await openPostgresPool({ url: db, poolSize: 2 });
    try {
      return await use(new PostgresCategoryRepository(pool));
    } finally {
      await pool.end();
    }
  }
  const sqlite = openSqliteDatabase(db);
  try {
    return await use(new SqliteCategoryRepository(sqlite));
  } finally {
    sqlite.close();
  }
}

/** Dogs (renamed once: version 2) and Cats, in `db`. */
async function seed(db: string): Promise<void> {
  await onCategories(db, async (categories) => {
    await categories.create('Hounds' as CategoryName);
    await categories.create('Cats' as CategoryName);
    await categories.rename(1 as CategoryId, 1, 'Dogs' as CategoryName);
  });
}

/** Pets filed under the bare numbers -3, 0 and 2 (a pet's categoryId may be any safe integer), in the SQLite file `db`. */
async function seedBareNumbers(db: string): Promise<void> {
  const sqlite = openSqliteDatabase(db);
  try {
    const pets = new SqlitePetRepository(sqlite);
    for (const [name, categoryId] of [
      ['Rex', -3],
      ['Tom', 0],
      ['Kit', 2],
    ] as const)
      await pets.create(draft(name, 'available', categoryId));
  } finally {
    sqlite.close();
  }
}

/** The category lines register-used gives the pets of seedBareNumbers. */
const REGISTERED_LINES = [
  '{"kind":"category","id":-3,"name":"Category -3","version":1}',
  '{"kind":"category","id":0,"name":"Category 0","version":1}',
  '{"kind":"category","id":2,"name":"Category 2","version":1}',
];

describe('export, import and copy of categories', () => {
  before(loadCommands);
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => dir.remove());
  const at = (name: string) => join(dir.path, name);
  const run = async (args: readonly string[], db: string, code = 0) => {
    const result = await runCommand(args, { PETSTORE_DB: db });
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).to.equal(code);
    return result;
  };
  const seeded = [
    { _tag: 'Some', value: { category: { id: 1, name: 'Dogs' }, version: 2 } },
    { _tag: 'Some', value: { category: { id: 2, name: 'Cats' }, version: 1 } },
  ];

  it('exports categories first, with their versions, under --all only; import restores them; a second import changes nothing', async () => {
    await seed(at('a.db'));
    await run(['export', '--all', '--out', at('a.ndjson')], at('a.db'));
    const lines = readFileSync(at('a.ndjson'), 'utf8').trimEnd().split('\n');
    expect(JSON.parse(lines[0]!)).to.deep.include({ version: 4 });
    expect(lines.slice(1)).to.deep.equal([
      '{"kind":"category","id":1,"name":"Dogs","version":2}',
      '{"kind":"category","id":2,"name":"Cats","version":1}',
    ]);
    const plain = (await run(['export'], at('a.db'))).stdout.trimEnd().split('\n');
    expect(plain).to.have.length(1);
    for (const round of [1, 2]) expect((await run(['import', at('a.ndjson')], at('b.db'))).code, `import ${round}`).to.equal(0);
    expect(await categoriesIn(at('b.db'))).to.deep.equal(seeded);
    const next = await onCategories(at('b.db'), (categories) => categories.create('Fish' as CategoryName));
    expect(next.kind === 'created' && next.category.id).to.equal(3);
  });

  it('refuses a category whose name the target holds under another id, naming its line, with exit code 1', async () => {
    await seed(at('a.db'));
    await run(['export', '--all', '--out', at('a.ndjson')], at('a.db'));
    await onCategories(at('b.db'), (categories) => categories.create('DOGS' as CategoryName));
    const refused = await run(['import', at('a.ndjson')], at('b.db'), 1);
    expect(refused.stderr).to.contain('{"kind":"category","id":1,"name":"Dogs","version":2}');
  });

  it('imports a file of format version 3, and refuses a category line in one', async () => {
    const pet = '{"kind":"pet","id":1,"name":"Rex","categoryId":1,"status":"available","version":1}';
    writeFileSync(at('v3.ndjson'), `{"format":"petstore-export","version":3,"petIdsIssued":1}\n${pet}\n`);
    await run(['import', at('v3.ndjson')], at('b.db'));
    writeFileSync(
      at('bad.ndjson'),
      `{"format":"petstore-export","version":3,"petIdsIssued":0}\n{"kind":"category","id":1,"name":"Dogs","version":1}\n`,
    );
    const refused = await run(['import', at('bad.ndjson')], at('c.db'), 1);
    expect(refused.stderr).to.contain('is a category, which a file of format version 3 does not hold');
  });

  it('round-trips the categories register-used gives negative and zero categoryIds, through import and copy', async () => {
    await seedBareNumbers(at('a.db'));
    await run(['categories', 'register-used'], at('a.db'));
    await run(['export', '--all', '--out', at('a.ndjson')], at('a.db'));
    const exported = readFileSync(at('a.ndjson'), 'utf8');
    expect(exported.split('\n').slice(1, 4)).to.deep.equal(REGISTERED_LINES);
    await run(['import', at('a.ndjson')], at('b.db'));
    expect((await run(['export', '--all'], at('b.db'))).stdout).to.equal(exported);
    await run(['copy', '--from', at('a.db'), '--to', at('c.db')], at('a.db'));
    expect((await run(['export', '--all'], at('c.db'))).stdout).to.equal(exported);
    const next = await onCategories(at('b.db'), (categories) => categories.create('Fish' as CategoryName));
    expect(next.kind === 'created' && next.category.id).to.equal(3);
  });

  describeWithPostgres('to and from PostgreSQL', () => {
    it('round-trips the categories register-used gives negative and zero categoryIds on PostgreSQL', async () => {
      await seedBareNumbers(at('a.db'));
      const [source, target] = [await createTestSchema(), await createTestSchema()];
      try {
        await run(['copy', '--from', at('a.db'), '--to', source.url], at('a.db'));
        await run(['categories', 'register-used'], source.url);
        await run(['export', '--all', '--out', at('pg.ndjson')], source.url);
        const exported = readFileSync(at('pg.ndjson'), 'utf8');
        expect(exported.split('\n').slice(1, 4)).to.deep.equal(REGISTERED_LINES);
        await run(['import', at('pg.ndjson')], target.url);
        expect((await run(['export', '--all'], target.url)).stdout).to.equal(exported);
        await run(['copy', '--from', source.url, '--to', at('d.db')], at('a.db'));
        expect((await run(['export', '--all'], at('d.db'))).stdout).to.equal(exported);
        const next = await onCategories(target.url, (categories) => categories.create('Fish' as CategoryName));
        expect(next.kind === 'created' && next.category.id).to.equal(3);
      } finally {
        await Promise.all([source.drop(), target.drop()]);
      }
    });

    it('copies categories with their versions to PostgreSQL and back, and exports the same lines from both', async () => {
      await seed(at('a.db'));
      const schema = await createTestSchema();
      try {
        await run(['copy', '--from', at('a.db'), '--to', schema.url], at('a.db'));
        expect(await categoriesIn(schema.url)).to.deep.equal(seeded);
        const fromPostgres = (await run(['export', '--all'], schema.url)).stdout;
        expect(fromPostgres).to.equal((await run(['export', '--all'], at('a.db'))).stdout);
        await run(['copy', '--from', schema.url, '--to', at('d.db')], at('a.db'));
        expect(await categoriesIn(at('d.db'))).to.deep.equal(seeded);
        const next = await onCategories(schema.url, (categories) => categories.create('Fish' as CategoryName));
        expect(next.kind === 'created' && next.category.id).to.equal(3);
      } finally {
        await schema.drop();
      }
    });
  });
});
