// petstore backup, export, import and copy on real SQLite files and a real PostgreSQL schema.
// The command line runs in this process (commands/command-line.ts); the compiled command
// (dist/cli.js) runs where the process is the point: its exit codes and stdout apart from
// stderr, and a copy killed halfway.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { PassThrough, Writable } from 'node:stream';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { openSqliteDatabase } from '../../src/adapters/sqlite/open-sqlite-database.js';
import { exportStore } from '../../src/commands/export.js';
import { createPetStore } from '../../src/composition/pet-store.js';
import type { CategoryId, Pet, PetId, PetName } from '../../src/domain/index.js';
import type { DatabaseConfig } from '../../src/config/database-config.js';
import { adminQuery, createTestSchema, describeWithPostgres, type TestSchema } from '../support/postgres.js';
import { loadCommands, runCommand } from '../support/command-line.js';
import { COMPILED_CLI, runCli, timeoutForProcesses } from '../support/server-process.js';
import { tempDir } from '../support/temp-dir.js';
import { clientFor } from '../support/http-client.js';
import { TEST_API_KEY, withTestServer } from '../support/test-server.js';

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

/** A database as PETSTORE_DB names it: a SQLite path or a postgres:// URL. */
const databaseAt = (db: string): DatabaseConfig =>
  db.startsWith('postgres://') ? { kind: 'postgres', url: db, poolSize: 2 } : { kind: 'sqlite', path: db };

/** Runs `work` with a client of a server on `db`. */
const withServer = <T>(db: string, work: (api: ReturnType<typeof clientFor>) => Promise<T>): Promise<T> =>
  withTestServer(databaseAt(db), (origin) => work(clientFor(origin, TEST_API_KEY)));

const MERGE_PATCH = { 'Content-Type': 'application/merge-patch+json' };

/**
 * Through the interface: 5 pets; pet 2 changed twice (version 3), pet 3 once (version 2); the
 * last two deleted. Answers the ETags of pets 1 to 3.
 */
async function seedWithChanges(db: string): Promise<string[]> {
  return withServer(db, async (api) => {
    for (let i = 1; i <= 5; i += 1) expect((await api.postJson('/v1/pets', { name: `pet ${i}`, categoryId: i })).status).to.equal(201);
    for (const [id, name] of [
      [2, 'Rex'],
      [2, 'Rex II'],
      [3, 'Mia'],
    ] as const) {
      const res = await api.send(`/v1/pets/${id}`, { method: 'PATCH', headers: MERGE_PATCH, body: JSON.stringify({ name }) });
      expect(res.status, res.text).to.equal(200);
    }
    for (const id of [5, 4]) expect((await api.send(`/v1/pets/${id}`, { method: 'DELETE' })).status).to.equal(204);
    return etagsOf(api);
  });
}

async function etagsOf(api: ReturnType<typeof clientFor>): Promise<string[]> {
  const etags: string[] = [];
  for (const id of [1, 2, 3]) etags.push(String((await api.get(`/v1/pets/${id}`)).headers['etag']));
  return etags;
}

/** The events recorded in a SQLite file's outbox. */
function sqliteEvents(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM events').pluck().get() as number;
  } finally {
    db.close();
  }
}

/** What a restored store answers: the ETags of pets 1 to 3, whether 4 and 5 are gone, and the id of the next pet created. */
async function restoredState(db: string): Promise<{ etags: string[]; gone: number[]; next: unknown }> {
  return withServer(db, async (api) => {
    const etags = await etagsOf(api);
    const gone = [];
    for (const id of [4, 5]) gone.push((await api.get(`/v1/pets/${id}`)).status);
    const next = (await api.postJson('/v1/pets', { name: 'next', categoryId: 1 })).json.id;
    return { etags, gone, next };
  });
}

describe('petstore backup, export, import and copy', () => {
  before(loadCommands);
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
      const result = await runCommand(['backup', at('copy.db')], { PETSTORE_DB: db });
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

  it('creates the database (with its -wal and -shm), its folder, backups and exports readable by their owner alone', async () => {
    const db = at('private/pets.db');
    const store = await createPetStore({ db, apiKeys: ['data-tools-test-key-0123'] });
    try {
      expect((await store.useCases.createPet({ name: 'Rex' as PetName, categoryId: 1 as CategoryId })())._tag).to.equal('Right');
      expect((await runCommand(['backup', at('backup.db')], { PETSTORE_DB: db })).code).to.equal(0);
      // A .partial left by another run, readable by all, is not reused with its mode.
      writeFileSync(at('all.ndjson.partial'), 'stale', { mode: 0o644 });
      expect((await runCommand(['export', '--all', '--out', at('all.ndjson')], { PETSTORE_DB: db })).code).to.equal(0);
      const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);
      expect(modeOf(at('private')), 'folder').to.equal('700');
      for (const file of [db, `${db}-wal`, `${db}-shm`, at('backup.db'), at('all.ndjson')]) expect(modeOf(file), file).to.equal('600');
    } finally {
      await store.close();
    }
  });

  it('refuses a backup into a folder that does not exist, naming the target, with exit code 1', async () => {
    const db = at('pets.db');
    expect((await runCommand(['keys', 'create'], { PETSTORE_DB: db })).code).to.equal(0);
    const target = at(join('missing', 'copy.db'));
    const result = await runCommand(['backup', target], { PETSTORE_DB: db });
    expect([result.code, result.stderr]).to.deep.equal([
      1,
      `petstore: cannot write the backup to ${target}: the folder ${at('missing')} does not exist.\n`,
    ]);
  });

  it('refuses to back up memory with exit code 2', async () => {
    const result = await runCommand(['backup', at('copy.db')], { PETSTORE_DB: 'memory' });
    expect([result.code, result.stderr]).to.deep.equal([
      2,
      'petstore: PETSTORE_DB is memory (nothing is kept after exit): there is nothing to back up.\n',
    ]);
  });

  it('refuses to import into a database in memory with exit code 2', async () => {
    const result = await runCommand(['import', at('pets.ndjson')], { PETSTORE_DB: ':memory:' });
    expect([result.code, result.stderr]).to.deep.equal([
      2,
      'petstore: PETSTORE_DB is sqlite :memory:, so what is imported there would be gone when this command ends.\n',
    ]);
  });

  it('round-trips 10,000 pets byte for byte: export, import into a new file, export again; a second import changes nothing', async () => {
    seedSqlite(at('a.db'), 10_000);
    const exported = await runCommand(['export', '--out', at('a.ndjson')], { PETSTORE_DB: at('a.db') });
    expect(exported.code, exported.stderr).to.equal(0);
    const text = readFileSync(at('a.ndjson'), 'utf8');
    const lines = text.split('\n');
    expect(lines.length).to.equal(10_002); // header, 10,000 pets, the final newline
    expect(lines[0]).to.equal('{"format":"petstore-export","version":4,"petIdsIssued":10000}');
    expect(lines[1]).to.equal('{"kind":"pet","id":1,"name":"Mia \\"the cat\\" 1","categoryId":-4,"status":"pending","version":1}');
    for (const run of ['first', 'second']) {
      const imported = await runCommand(['import', at('a.ndjson')], { PETSTORE_DB: at('b.db') });
      expect(imported.code, imported.stderr).to.equal(0);
      expect(imported.stdout, run).to.contain(run === 'first' ? '10000 new, 0 stored already' : '0 new, 10000 stored already');
    }
    // To a file, compared as bytes (the names hold multi-byte characters).
    const again = await runCommand(['export', '--out', at('b.ndjson')], { PETSTORE_DB: at('b.db') });
    expect(again.code, again.stderr).to.equal(0);
    expect(readFileSync(at('b.ndjson')).equals(readFileSync(at('a.ndjson'))), 'the second export is the same bytes').to.equal(true);
  });

  it('stops at a malformed line with its number and exit code 1, having imported nothing', async () => {
    const header = '{"format":"petstore-export","version":1}';
    const good = '{"kind":"pet","id":1,"name":"Rex","categoryId":1,"status":"available"}';
    writeFileSync(at('bad.ndjson'), [header, good, '{"kind":"pet","id":2,"name":" ","categoryId":1,"status":"lost"}', good, ''].join('\n'));
    const result = await runCommand(['import', at('bad.ndjson')], { PETSTORE_DB: at('b.db') });
    expect(result.code).to.equal(1);
    expect(result.stderr).to.match(
      /bad\.ndjson line 3: \/name .*; \/status must be one of available, pending, sold\. Nothing was imported\.\n$/,
    );
    expect(existsSync(at('b.db')), 'the file is checked before the database is opened, or made').to.equal(false);
  });

  it('stops at a malformed line past the first batch with its number, having imported none of the lines before it', async () => {
    const pets = Array.from(
      { length: 12_000 },
      (_, i) => `{"kind":"pet","id":${i + 1},"name":"pet ${i + 1}","categoryId":1,"status":"sold"}`,
    );
    const bad = '{"kind":"pet","id":12001,"name":"late","categoryId":1,"status":"lost"}';
    writeFileSync(at('late.ndjson'), ['{"format":"petstore-export","version":1}', ...pets, bad, ''].join('\n'));
    const result = await runCommand(['import', at('late.ndjson')], { PETSTORE_DB: at('b.db') });
    expect(result.code).to.equal(1);
    expect(result.stderr).to.match(/late\.ndjson line 12002: \/status must be one of available, pending, sold\. Nothing was imported\.\n$/);
    expect(existsSync(at('b.db')), 'the file is checked before the database is opened, or made').to.equal(false);
  });

  it('imports a file of format version 1: each pet at version 1, the sequence after the largest id; exported again in the newest version', async () => {
    const header = '{"format":"petstore-export","version":1}';
    const pets = [1, 3].map((id) => `{"kind":"pet","id":${id},"name":"pet ${id}","categoryId":1,"status":"available"}`);
    writeFileSync(at('v1.ndjson'), [header, ...pets, ''].join('\n'));
    const imported = await runCommand(['import', at('v1.ndjson')], { PETSTORE_DB: at('b.db') });
    expect(imported.code, imported.stderr).to.equal(0);
    const exported = await runCommand(['export'], { PETSTORE_DB: at('b.db') });
    expect(exported.stdout).to.equal(
      ['{"format":"petstore-export","version":4,"petIdsIssued":3}', ...pets.map((line) => line.replace(/}$/, ',"version":1}')), ''].join(
        '\n',
      ),
    );
    expect(await withServer(at('b.db'), async (api) => (await api.get('/v1/pets/3')).headers['etag'])).to.equal('"3-1"');
  });

  it('refuses with exit code 2 a version it does not read, a header without its ids issued, and a pet without its version in version 2', async () => {
    const pet = '{"kind":"pet","id":1,"name":"Rex","categoryId":1,"status":"available"}';
    const cases = [
      [
        '{"format":"petstore-export","version":5}',
        2,
        'format version 5, which this release does not read (it reads versions 1, 2, 3 and 4)',
      ],
      ['{"format":"petstore-export","version":2}', 2, 'its header line is not one of format version 2: /petIdsIssued'],
      ['{"format":"petstore-export","version":2,"petIdsIssued":-1}', 2, '/petIdsIssued must be an integer between 0 and'],
      ['{"format":"petstore-export","version":2,"petIdsIssued":1}', 1, 'line 2: /version'],
    ] as const;
    for (const [header, code, message] of cases) {
      writeFileSync(at('x.ndjson'), `${header}\n${pet}\n`);
      const result = await runCommand(['import', at('x.ndjson')], { PETSTORE_DB: at('b.db') });
      expect([result.code, result.stderr], header).to.satisfy(([c, e]: [number, string]) => c === code && e.includes(message));
    }
  });

  it('carries versions and deletions on SQLite: ETags equal after export and import and after copy, deleted ids never given again, no event written', async () => {
    const etags = await seedWithChanges(at('a.db'));
    expect(etags).to.deep.equal(['"1-1"', '"2-3"', '"3-2"']);
    const exported = await runCommand(['export', '--out', at('a.ndjson')], { PETSTORE_DB: at('a.db') });
    expect(exported.code, exported.stderr).to.equal(0);
    const lines = readFileSync(at('a.ndjson'), 'utf8').split('\n');
    expect(lines[0]).to.equal('{"format":"petstore-export","version":4,"petIdsIssued":5}');
    expect(lines[2]).to.equal('{"kind":"pet","id":2,"name":"Rex II","categoryId":2,"status":"available","version":3}');
    expect(lines).to.have.length(5); // header, 3 pets, the final newline

    const imported = await runCommand(['import', at('a.ndjson')], { PETSTORE_DB: at('b.db') });
    expect(imported.code, imported.stderr).to.equal(0);
    expect(sqliteEvents(at('b.db')), 'the import wrote no change event').to.equal(0);
    const copied = await runCommand(['copy', '--from', at('a.db'), '--to', at('c.db')], {});
    expect(copied.code, copied.stderr).to.equal(0);
    expect(sqliteEvents(at('c.db')), 'the copy wrote no change event').to.equal(0);
    for (const db of ['b.db', 'c.db']) expect(await restoredState(at(db)), db).to.deep.equal({ etags, gone: [404, 404], next: 6 });
  });

  it('as the compiled process: exports on stdout alone with exit code 0, and refuses a file that is not an export with 2 on stderr alone', async function () {
    this.timeout(timeoutForProcesses(2));
    seedSqlite(at('a.db'), 3);
    const exported = await runCli(['export'], { PETSTORE_DB: at('a.db') });
    expect([exported.code, exported.stderr]).to.deep.equal([0, '']);
    const lines = exported.stdout.split('\n');
    expect(lines[0]).to.equal('{"format":"petstore-export","version":4,"petIdsIssued":3}');
    expect(lines.slice(1).map((line) => (line === '' ? '' : JSON.parse(line).id))).to.deep.equal([1, 2, 3, '']);
    writeFileSync(at('pets.json'), '[{"id":1,"name":"Rex"}]\n');
    const result = await runCli(['import', at('pets.json')], { PETSTORE_DB: at('b.db') });
    expect([result.code, result.stdout]).to.deep.equal([2, '']);
    expect(result.stderr).to.contain(
      'pets.json cannot be imported: it is not a petstore export: its first line is not a header such as {"format":"petstore-export","version":4,"petIdsIssued":0}',
    );
  });

  it('reports a pet whose id is stored with other content as a conflict, with its line, exit code 1', async () => {
    seedSqlite(at('a.db'), 3);
    const header = '{"format":"petstore-export","version":1}';
    writeFileSync(at('other.ndjson'), `${header}\n{"kind":"pet","id":2,"name":"Someone else","categoryId":1,"status":"sold"}\n`);
    const result = await runCommand(['import', at('other.ndjson')], { PETSTORE_DB: at('a.db') });
    expect(result.code).to.equal(1);
    expect(result.stderr).to.contain('line 2: {"kind":"pet","id":2,"name":"Someone else"');
  });

  it('fails with exit code 1 and the target named without its password when the target cannot be reached', async () => {
    seedSqlite(at('a.db'), 3);
    const result = await runCommand(['copy', '--from', at('a.db'), '--to', 'postgres://petstore:s3cret@127.0.0.1:1/petstore'], {});
    expect(result.code).to.equal(1);
    expect(result.stderr).to.contain('could not use the database postgres postgres://petstore@127.0.0.1:1/petstore');
    expect(result.stderr).not.to.contain('s3cret');
  });

  it('exports the store as it stood when the export began: a keyed create made meanwhile is in it with its pet, or not at all', async () => {
    const db = at('live.db');
    seedSqlite(db, 3);
    await withServer(db, async (api) => {
      let created = false;
      // Standard output that takes one line at a time; after the header, a keyed create commits a pet and its record.
      const stdout = new Writable({
        highWaterMark: 1,
        write(chunk: Buffer, _encoding, done) {
          lines.push(
            ...chunk
              .toString()
              .split('\n')
              .filter((line) => line !== ''),
          );
          if (created) return done();
          created = true;
          api
            .postJson('/v1/pets', { name: 'meanwhile', categoryId: 1 }, { 'Idempotency-Key': '"meanwhile-1"' })
            .then((res) => done(res.status === 201 ? null : new Error(res.text)), done);
        },
      });
      const lines: string[] = [];
      const io = { stdout, stderr: process.stderr };
      const code = await exportStore({ out: undefined, all: true, quiet: true }, { PETSTORE_DB: db }, io);
      expect(code).to.equal(0);
      expect(created, 'the create was made during the export').to.equal(true);
      expect((await api.get('/v1/pets/4')).status, 'the create committed').to.equal(200);
      expect(JSON.parse(lines[0]!)).to.deep.include({ petIdsIssued: 3 });
      const kinds = lines.slice(1).map((line) => JSON.parse(line) as { kind: string; id?: number });
      expect(kinds.filter((line) => line.kind === 'pet').map((line) => line.id)).to.deep.equal([1, 2, 3]);
      expect(kinds.filter((line) => line.kind === 'idempotencyRecord')).to.deep.equal([]);
    });
  });

  it('names the output, not the database, when an export cannot be written; leaves no partial file', async () => {
    seedSqlite(at('a.db'), 3);
    const missing = await runCommand(['export', '--out', at('nowhere/pets.ndjson')], { PETSTORE_DB: at('a.db') });
    expect(missing.code).to.equal(1);
    expect(missing.stderr).to.contain(
      `cannot write the export to ${at('nowhere/pets.ndjson')}: the folder ${at('nowhere')} does not exist`,
    );
    const folder = await runCommand(['export', '--out', dir.path], { PETSTORE_DB: at('a.db') });
    expect(folder.code).to.equal(1);
    expect(folder.stderr).to.contain(`cannot write the export to ${dir.path}: it is a folder`);
    expect(existsSync(`${dir.path}.partial`)).to.equal(false);
    // A .partial that cannot be made (here a folder of that name) is told before the store is opened, without a trace.
    mkdirSync(at('blocked.ndjson.partial'));
    const blocked = await runCommand(['export', '--out', at('blocked.ndjson')], { PETSTORE_DB: at('a.db') });
    expect(blocked.code).to.equal(1);
    expect(blocked.stderr).to.match(/^petstore: cannot write the export to .*blocked\.ndjson: \w+: /);
    expect(blocked.stderr).not.to.contain('    at ');
    // A link or a pipe would be replaced by the finished file, not written through: refused, left as it is.
    writeFileSync(at('target.ndjson'), 'kept\n');
    symlinkSync(at('target.ndjson'), at('link.ndjson'));
    execFileSync('mkfifo', [at('pipe.ndjson')]);
    for (const [command, out] of [
      ['export', at('link.ndjson')],
      ['export', at('pipe.ndjson')],
      ['backup', at('link.ndjson')],
    ] as const) {
      const refused = await runCommand(command === 'export' ? ['export', '--out', out] : ['backup', out], { PETSTORE_DB: at('a.db') });
      expect(refused.code, `${command} ${out}`).to.equal(1);
      expect(refused.stderr, `${command} ${out}`).to.contain('it is not a regular file');
    }
    expect(lstatSync(at('link.ndjson')).isSymbolicLink() && readFileSync(at('target.ndjson'), 'utf8')).to.equal('kept\n');
    expect(lstatSync(at('pipe.ndjson')).isFIFO()).to.equal(true);
    // A reader that goes away: the failure is the output's.
    const closed = new Writable({ write: (_chunk, _encoding, done) => done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })) });
    const stderr = new PassThrough();
    const told: string[] = [];
    stderr.on('data', (chunk: Buffer) => told.push(chunk.toString()));
    const code = await exportStore(
      { out: undefined, all: false, quiet: true },
      { PETSTORE_DB: at('a.db') },
      {
        stdout: closed,
        stderr: stderr as unknown as NodeJS.WriteStream,
      },
    );
    expect(code).to.equal(1);
    expect(told.join(''))
      .to.contain('could not write the export to standard output: Error: write EPIPE')
      .and.not.to.contain('could not use the database');
  });

  it('refuses to import a folder, a line too long to be a record, and bytes that are not UTF-8, with nothing imported', async () => {
    const header = '{"format":"petstore-export","version":2,"petIdsIssued":2}';
    const folder = await runCommand(['import', dir.path], { PETSTORE_DB: at('b.db') });
    expect(folder.code).to.equal(2);
    expect(folder.stderr).to.contain(`${dir.path} cannot be read: EISDIR`);
    const pet = (id: number, name: string) => `{"kind":"pet","id":${id},"name":"${name}","categoryId":1,"status":"available","version":1}`;
    writeFileSync(at('long.ndjson'), `${header}\n${pet(1, 'Rex')}\n${pet(2, 'x'.repeat(300_000))}\n`);
    const long = await runCommand(['import', at('long.ndjson')], { PETSTORE_DB: at('b.db') });
    expect(long.code).to.equal(1);
    expect(long.stderr).to.contain('long.ndjson line 3: longer than 65536 characters, not a record. Nothing was imported.');
    // Bytes that are not UTF-8 are refused, not stored as U+FFFD.
    const [before, after] = pet(2, '#').split('#') as [string, string];
    writeFileSync(at('latin1.ndjson'), Buffer.from(`${header}\n${pet(1, 'Rex')}\n${before}caf\xe9${after}\n`, 'latin1'));
    const latin1 = await runCommand(['import', at('latin1.ndjson')], { PETSTORE_DB: at('b.db') });
    expect(latin1.code).to.equal(1);
    expect(latin1.stderr).to.contain('latin1.ndjson line 3: not valid UTF-8. Nothing was imported.');
    expect(existsSync(at('b.db')), 'nothing was opened, so nothing was created').to.equal(false);
    // A character split between two reads of 64 KiB is UTF-8: the dog's four bytes straddle byte 65,536.
    const filler = `${pet(1, 'Rex')}\n`;
    const copies = Math.floor((65_534 - `${header}\n`.length - before.length - 10) / filler.length);
    const padding = 65_534 - `${header}\n`.length - copies * filler.length - before.length;
    const straddling = `${header}\n${filler.repeat(copies)}${before}${'a'.repeat(padding)}🐕${after}\n`;
    expect(Buffer.from(straddling).subarray(65_534, 65_538).toString()).to.equal('🐕');
    writeFileSync(at('utf8.ndjson'), straddling);
    const imported = await runCommand(['import', at('utf8.ndjson')], { PETSTORE_DB: at('c.db') });
    expect(imported.code, imported.stderr).to.equal(0);
    const name = (openSqliteDatabase(at('c.db')).prepare('SELECT name FROM pets WHERE id = 2').get() as { name: string }).name;
    expect(name).to.equal(`${'a'.repeat(padding)}🐕`);
  });

  it('reports two lines of one file with the same id and other content as a conflict, naming the later line', async () => {
    const header = '{"format":"petstore-export","version":2,"petIdsIssued":2}';
    const pet = (id: number, name: string) => `{"kind":"pet","id":${id},"name":"${name}","categoryId":1,"status":"available","version":1}`;
    writeFileSync(at('twice.ndjson'), `${header}\n${pet(1, 'Rex')}\n${pet(2, 'Tom')}\n${pet(2, 'Jerry')}\n`);
    const result = await runCommand(['import', at('twice.ndjson')], { PETSTORE_DB: at('b.db') });
    expect(result.code).to.equal(1);
    expect(result.stderr)
      .to.contain('stored in the database already, or by an earlier line of this file')
      .and.contain('line 4: {"kind":"pet","id":2,"name":"Jerry"');
  });

  describeWithPostgres('to PostgreSQL', () => {
    let schema: TestSchema;
    beforeEach(async () => (schema = await createTestSchema()));
    afterEach(() => schema.drop());

    it('refuses a backup with exit code 2, naming pg_dump and the database without its password', async () => {
      const url = new URL(schema.url);
      url.password = 'hunter2';
      const result = await runCommand(['backup', at('copy.db')], { PETSTORE_DB: url.toString() });
      expect(result.code).to.equal(2);
      expect(result.stderr).to.contain('pg_dump').and.not.to.contain('hunter2');
    });

    it('carries versions and deletions to and from PostgreSQL: import and copy keep ETags, give no deleted id again, write no event', async () => {
      const etags = await seedWithChanges(at('a.db'));
      const other = await createTestSchema();
      try {
        const events = async (name: string) => Number((await adminQuery<{ n: string }>(`SELECT count(*) AS n FROM ${name}.events`))[0]!.n);
        expect((await runCommand(['export', '--out', at('a.ndjson')], { PETSTORE_DB: at('a.db') })).code).to.equal(0);
        const imported = await runCommand(['import', at('a.ndjson')], { PETSTORE_DB: schema.url });
        expect(imported.code, imported.stderr).to.equal(0);
        expect(await events(schema.name), 'the import wrote no change event').to.equal(0);
        const copied = await runCommand(['copy', '--from', at('a.db'), '--to', other.url], {});
        expect(copied.code, copied.stderr).to.equal(0);
        expect(await events(other.name), 'the copy wrote no change event').to.equal(0);
        // And from PostgreSQL: its ids issued read from the identity sequence (5, though the largest id is 3).
        const back = await runCommand(['copy', '--from', other.url, '--to', at('d.db')], {});
        expect(back.code, back.stderr).to.equal(0);
        for (const db of [schema.url, other.url, at('d.db')])
          expect(await restoredState(db), db).to.deep.equal({ etags, gone: [404, 404], next: 6 });
      } finally {
        await other.drop();
      }
    });

    it('copies SQLite to PostgreSQL, killed halfway: the target serves creates; run again: equal checksums, and the next pet gets the next id', async function () {
      // Four batches, killed once the first is in: the compiled command's start, and 40,000 pets
      // seeded and copied about twice, take seconds of CPU, stretched on a busy machine.
      this.timeout(timeoutForProcesses(1) + 30_000);
      const total = 40_000;
      seedSqlite(at('a.db'), total);
      const count = async () => Number((await adminQuery<{ n: string }>(`SELECT count(*) AS n FROM ${schema.name}.pets`))[0]!.n);
      const child = spawn(process.execPath, [COMPILED_CLI, 'copy', '--from', at('a.db'), '--to', schema.url, '--quiet'], {
        env: { PATH: process.env['PATH'] ?? '' },
        stdio: 'ignore',
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
      for (;;) {
        const copied = await count().catch(() => 0);
        if (copied >= 10_000 || child.exitCode !== null) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      child.kill('SIGKILL');
      expect(await exited, 'killed, not finished').to.equal('SIGKILL');
      const halfway = await count();
      expect(halfway).to.be.above(0).and.below(total);
      // The target as the kill left it: its sequence was continued after every batch, so a
      // server on it creates (past the ids the source issued) instead of failing on a stored id.
      const early = await createPetStore({ db: schema.url, apiKeys: ['data-tools-test-key-0123'] });
      try {
        const created = await early.useCases.createPet({ name: 'early' as PetName, categoryId: 1 as CategoryId })();
        expect(created._tag === 'Right' && created.right.id).to.equal(total + 1);
        const removed = await early.useCases.deletePet({ id: (total + 1) as PetId, expected: 'any' })();
        expect(removed._tag).to.equal('Right');
      } finally {
        await early.close();
      }

      const again = await runCommand(['copy', '--from', at('a.db'), '--to', schema.url], {});
      expect(again.code, again.stderr).to.equal(0);
      const sums = [...again.stdout.matchAll(/(\d+) records, sha256 ([0-9a-f]{64})/g)].map((m) => [m[1], m[2]]);
      expect(sums).to.have.length(2);
      expect(sums[0]).to.deep.equal(sums[1]);
      expect(sums[0]![0]).to.equal(String(total));
      expect(await count()).to.equal(total);

      const store = await createPetStore({ db: schema.url, apiKeys: ['data-tools-test-key-0123'] });
      try {
        const next = await store.useCases.createPet({ name: 'next' as PetName, categoryId: 1 as CategoryId })();
        expect(next._tag === 'Right' && next.right.id, 'the id deleted on the target is not given again').to.equal(total + 2);
      } finally {
        await store.close();
      }
    });
  });
});
