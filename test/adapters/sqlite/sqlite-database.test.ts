// What the SQLite adapter promises beyond the contract: durability settings, schema
// versioning, data that survives a reopen, and an index that serves the status filter.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import * as O from 'fp-ts/lib/Option.js';
import { SQLITE_SCHEMA_VERSION } from '../../../src/adapters/sqlite/migrations.js';
import { openSqliteDatabase } from '../../../src/adapters/sqlite/open-sqlite-database.js';
import { SqlitePetRepository } from '../../../src/adapters/sqlite/sqlite-pet-repository.js';
import { draft } from '../../contract/pet-repository.contract.js';
import { tempDir } from '../../support/temp-dir.js';

describe('SQLite database', () => {
  let dir: ReturnType<typeof tempDir>;
  let file: string;
  beforeEach(() => {
    dir = tempDir();
    file = join(dir.path, 'a', 'b', 'petstore.db');
  });
  afterEach(() => dir.remove());

  it('creates the file and its folders, in WAL mode with full synchronous commits', () => {
    const db = openSqliteDatabase(file);
    try {
      expect(db.pragma('journal_mode', { simple: true })).to.equal('wal');
      expect(db.pragma('synchronous', { simple: true })).to.equal(2); // FULL
      expect(db.pragma('busy_timeout', { simple: true })).to.equal(5000);
    } finally {
      db.close();
    }
  });

  it('records the schema version and applies migrations only once', () => {
    openSqliteDatabase(file).close();
    const db = openSqliteDatabase(file);
    try {
      expect(db.pragma('user_version', { simple: true })).to.equal(SQLITE_SCHEMA_VERSION);
      expect(SQLITE_SCHEMA_VERSION).to.be.greaterThan(0);
    } finally {
      db.close();
    }
  });

  it('refuses a database whose schema is newer than this release', () => {
    openSqliteDatabase(file).close();
    const raw = new Database(file);
    raw.pragma(`user_version = ${SQLITE_SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => openSqliteDatabase(file)).to.throw(/newer than this release/);
  });

  it('keeps pets across a close and reopen of the same file', async () => {
    const first = openSqliteDatabase(file);
    const created = await new SqlitePetRepository(first).create(draft('Survivor', 'sold', 9));
    first.close();
    const second = openSqliteDatabase(file);
    try {
      expect(await new SqlitePetRepository(second).findById(created.id)).to.deep.equal(O.some(created));
      const again = await new SqlitePetRepository(second).create(draft('Next'));
      expect(again.id).to.be.greaterThan(created.id);
    } finally {
      second.close();
    }
  });

  it('serves the status filter from the (status, id) index, with no sort step', () => {
    const db = openSqliteDatabase(file);
    try {
      const plan = db
        .prepare('EXPLAIN QUERY PLAN SELECT id, name, category_id, status FROM pets WHERE status = ? ORDER BY id LIMIT ?')
        .all('sold', 20) as Array<{ detail: string }>;
      const details = plan.map((row) => row.detail).join(' | ');
      expect(details).to.match(/USING (COVERING )?INDEX pets_status_id/);
      expect(details).not.to.match(/TEMP B-TREE/);
    } finally {
      db.close();
    }
  });

  it('refuses a row with a status outside the three values, even written around the adapter', () => {
    const db = openSqliteDatabase(file);
    try {
      expect(() => db.prepare("INSERT INTO pets (name, category_id, status) VALUES ('x', 1, 'lost')").run()).to.throw(/CHECK/);
    } finally {
      db.close();
    }
  });

  it('lists the filtered pets of a large table in id order', async () => {
    const db = openSqliteDatabase(file);
    try {
      const repo = new SqlitePetRepository(db);
      db.transaction(() => {
        const insert = db.prepare('INSERT INTO pets (name, category_id, status) VALUES (?, 1, ?)');
        for (let i = 0; i < 2000; i += 1) insert.run(`p${i}`, ['available', 'pending', 'sold'][i % 3]);
      })();
      const sold = await repo.list({ limit: 100, status: 'sold' });
      expect(sold).to.have.length(100);
      expect(sold.every((p) => p.status === 'sold')).to.equal(true);
      expect(sold.map((p) => p.id)).to.deep.equal([...sold.map((p) => p.id)].sort((a, b) => a - b));
    } finally {
      db.close();
    }
  });
});

describe('SQLite migrations under concurrency', () => {
  it('lets several processes open a new file at once: each starts, the schema is made once', async () => {
    const { spawn } = await import('node:child_process');
    const { pathToFileURL } = await import('node:url');
    const dir = tempDir();
    try {
      const file = join(dir.path, 'race.db');
      const opener = pathToFileURL(join(process.cwd(), 'dist', 'adapters', 'sqlite', 'open-sqlite-database.js')).href;
      // Every process loads first, then all open the file at the same instant.
      const startAt = Date.now() + 1500;
      const script =
        `const m = await import(${JSON.stringify(opener)}); while (Date.now() < ${startAt}); ` +
        `m.openSqliteDatabase(${JSON.stringify(file)}).close();`;
      const failures = await Promise.all(
        Array.from(
          { length: 6 },
          () =>
            new Promise<string>((resolve) => {
              const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
              let stderr = '';
              child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
              child.on('exit', (code) => resolve(code === 0 ? '' : `exit ${code}: ${stderr}`));
            }),
        ),
      );
      expect(failures.filter((f) => f !== '')).to.deep.equal([]);
      const db = new Database(file);
      expect(db.pragma('user_version', { simple: true })).to.equal(SQLITE_SCHEMA_VERSION);
      db.close();
    } finally {
      dir.remove();
    }
  });
});
