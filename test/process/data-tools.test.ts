// petstore backup, export, import and copy, run as the compiled command (dist/cli.js) on real
// SQLite files and a real PostgreSQL schema.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { openSqliteDatabase } from '../../src/adapters/sqlite/open-sqlite-database.js';
import { createPetStore } from '../../src/composition/pet-store.js';
import type { CategoryId, Pet, PetName } from '../../src/domain/index.js';
import { adminQuery, createTestSchema, describeWithPostgres, type TestSchema } from '../support/postgres.js';
import { COMPILED_CLI, runCli } from '../support/server-process.js';
import { tempDir } from '../support/temp-dir.js';

const NAMES = ['Rex', 'Mia "the cat"', 'Ünïcödé 🐕', 'back\\slash', '名前 with spaces'];

/** A SQLite file with `count` pets (ids 1…count, names of every kind), written directly. */
function seedSqlite(path: string, count: number): void {
  const db = openSqliteDatabase(path);
  const insert = db.prepare('INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let i = 1; i <= count; i += 1)
      insert.run(`${NAMES[i % NAMES.length]} ${i}`, (i % 11) - 5, ['available', 'pending', 'sold'][i % 3]);
  })();
  db.close();
}

describe('petstore backup, export, import and copy', function () {
  this.timeout(60_000);
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => dir.remove());
  const at = (name: string) => join(dir.path, name);

  it('backs up a SQLite file while pets are created: the copy opens, passes integrity_check and holds every pet acknowledged before', async () => {
    const db = at('live.db');
    const store = await createPetStore({ db, apiKeys: ['data-tools-test-key-0123'] });
    const acknowledged: Pet[] = [];
    const create = async (i: number) => {
      const result = await store.useCases.createPet({ name: `pet ${i}` as PetName, categoryId: 1 as CategoryId })();
      if (result._tag === 'Right') acknowledged.push(result.right);
    };
    try {
      for (let i = 0; i < 300; i += 1) await create(i);
      let writing = true;
      const writer = (async () => {
        for (let i = 300; writing; i += 1) await create(i);
      })();
      await new Promise((resolve) => setTimeout(resolve, 50));
      const before = [...acknowledged];
      const result = await runCli(['backup', at('copy.db')], { PETSTORE_DB: db });
      writing = false;
      await writer;
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stdout).to.match(/^Backed up sqlite .*live\.db to .*copy\.db \(\d+ pages\)\.\n$/);
      expect(acknowledged.length, 'creates went on during the backup').to.be.above(before.length);
      const copy = new Database(at('copy.db'), { readonly: true });
      try {
        expect(copy.pragma('integrity_check', { simple: true })).to.equal('ok');
        const ids = new Set(copy.prepare('SELECT id FROM pets').pluck().all() as number[]);
        expect(
          before.filter((pet) => !ids.has(pet.id)),
          'acknowledged pets missing from the copy',
        ).to.deep.equal([]);
      } finally {
        copy.close();
      }
    } finally {
      await store.close();
    }
  });

  it('refuses to back up memory with exit code 2', async () => {
    const result = await runCli(['backup', at('copy.db')], { PETSTORE_DB: 'memory' });
    expect([result.code, result.stderr]).to.deep.equal([
      2,
      'petstore: PETSTORE_DB is memory (nothing is kept after exit): there is nothing to back up.\n',
    ]);
  });

  it('round-trips 10,000 pets byte for byte: export, import into a new file, export again; a second import changes nothing', async () => {
    seedSqlite(at('a.db'), 10_000);
    const exported = await runCli(['export', '--out', at('a.ndjson')], { PETSTORE_DB: at('a.db') });
    expect(exported.code, exported.stderr).to.equal(0);
    const text = readFileSync(at('a.ndjson'), 'utf8');
    const lines = text.split('\n');
    expect(lines.length).to.equal(10_002); // header, 10,000 pets, the final newline
    expect(lines[0]).to.equal('{"format":"petstore-export","version":1}');
    expect(lines[1]).to.equal('{"kind":"pet","id":1,"name":"Mia \\"the cat\\" 1","categoryId":-4,"status":"pending"}');
    for (const run of ['first', 'second']) {
      const imported = await runCli(['import', at('a.ndjson')], { PETSTORE_DB: at('b.db') });
      expect(imported.code, imported.stderr).to.equal(0);
      expect(imported.stdout, run).to.contain(run === 'first' ? '10000 new, 0 stored already' : '0 new, 10000 stored already');
    }
    const again = await runCli(['export'], { PETSTORE_DB: at('b.db') });
    expect(again.code, again.stderr).to.equal(0);
    expect(again.stdout === text, 'the second export is the same bytes').to.equal(true);
  });

  it('stops at a malformed line with its number and exit code 1, having imported nothing', async () => {
    const header = '{"format":"petstore-export","version":1}';
    const good = '{"kind":"pet","id":1,"name":"Rex","categoryId":1,"status":"available"}';
    writeFileSync(at('bad.ndjson'), [header, good, '{"kind":"pet","id":2,"name":" ","categoryId":1,"status":"lost"}', good, ''].join('\n'));
    const result = await runCli(['import', at('bad.ndjson')], { PETSTORE_DB: at('b.db') });
    expect(result.code).to.equal(1);
    expect(result.stderr).to.match(
      /bad\.ndjson line 3: \/name .*; \/status must be one of available, pending, sold\. Nothing was imported\.\n$/,
    );
    const exported = await runCli(['export'], { PETSTORE_DB: at('b.db') });
    expect(exported.stdout).to.equal(`${header}\n`);
  });

  it('refuses a file that is not an export with exit code 2', async () => {
    writeFileSync(at('pets.json'), '[{"id":1,"name":"Rex"}]\n');
    const result = await runCli(['import', at('pets.json')], { PETSTORE_DB: at('b.db') });
    expect(result.code).to.equal(2);
    expect(result.stderr).to.contain(
      'pets.json cannot be imported: it is not a petstore export: its first line is not {"format":"petstore-export","version":1}',
    );
  });

  it('reports a pet whose id is stored with other content as a conflict, with its line, exit code 1', async () => {
    seedSqlite(at('a.db'), 3);
    const header = '{"format":"petstore-export","version":1}';
    writeFileSync(at('other.ndjson'), `${header}\n{"kind":"pet","id":2,"name":"Someone else","categoryId":1,"status":"sold"}\n`);
    const result = await runCli(['import', at('other.ndjson')], { PETSTORE_DB: at('a.db') });
    expect(result.code).to.equal(1);
    expect(result.stderr).to.contain('line 2: {"kind":"pet","id":2,"name":"Someone else"');
  });

  it('fails with exit code 1 and the target named without its password when the target cannot be reached', async () => {
    seedSqlite(at('a.db'), 3);
    const result = await runCli(['copy', '--from', at('a.db'), '--to', 'postgres://petstore:s3cret@127.0.0.1:1/petstore'], {});
    expect(result.code).to.equal(1);
    expect(result.stderr).to.contain('could not use the database postgres postgres://petstore@127.0.0.1:1/petstore');
    expect(result.stderr).not.to.contain('s3cret');
  });

  describeWithPostgres('to PostgreSQL', () => {
    let schema: TestSchema;
    beforeEach(async () => (schema = await createTestSchema()));
    afterEach(() => schema.drop());

    it('refuses a backup with exit code 2, naming pg_dump and the database without its password', async () => {
      const url = new URL(schema.url);
      url.password = 'hunter2';
      const result = await runCli(['backup', at('copy.db')], { PETSTORE_DB: url.toString() });
      expect(result.code).to.equal(2);
      expect(result.stderr).to.contain('pg_dump').and.not.to.contain('hunter2');
    });

    it('copies SQLite to PostgreSQL, killed halfway and run again: equal checksums, and the next pet gets the next id', async () => {
      const total = 100_000;
      seedSqlite(at('a.db'), total);
      const count = async () => Number((await adminQuery<{ n: string }>(`SELECT count(*) AS n FROM ${schema.name}.pets`))[0]!.n);
      const child = spawn(process.execPath, [COMPILED_CLI, 'copy', '--from', at('a.db'), '--to', schema.url, '--quiet'], {
        env: { PATH: process.env['PATH'] ?? '' },
        stdio: 'ignore',
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
      for (;;) {
        const copied = await count().catch(() => 0);
        if (copied >= 20_000 || child.exitCode !== null) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      child.kill('SIGKILL');
      expect(await exited, 'killed, not finished').to.equal('SIGKILL');
      const halfway = await count();
      expect(halfway).to.be.above(0).and.below(total);

      const again = await runCli(['copy', '--from', at('a.db'), '--to', schema.url], {});
      expect(again.code, again.stderr).to.equal(0);
      const sums = [...again.stdout.matchAll(/(\d+) records, sha256 ([0-9a-f]{64})/g)].map((m) => [m[1], m[2]]);
      expect(sums).to.have.length(2);
      expect(sums[0]).to.deep.equal(sums[1]);
      expect(sums[0]![0]).to.equal(String(total));
      expect(await count()).to.equal(total);

      const store = await createPetStore({ db: schema.url, apiKeys: ['data-tools-test-key-0123'] });
      try {
        const next = await store.useCases.createPet({ name: 'next' as PetName, categoryId: 1 as CategoryId })();
        expect(next._tag === 'Right' && next.right.id).to.equal(total + 1);
      } finally {
        await store.close();
      }
    });
  });
});
