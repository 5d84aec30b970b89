// export --out, backup and copy never write a file of the SQLite database they read, whatever
// path names it: refused before anything is written, the database left as it was.
import { linkSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Writable } from 'node:stream';
import type Database from 'better-sqlite3';
import { expect } from 'chai';
import { openSqliteDatabase } from '../../src/adapters/sqlite/open-sqlite-database.js';
import { backup } from '../../src/commands/backup.js';
import { copyStore } from '../../src/commands/copy.js';
import type { DataIo } from '../../src/commands/support/data-io.js';
import { exportStore } from '../../src/commands/export.js';
import { tempDir } from '../support/temp-dir.js';

const PETS = 3;

/** Streams that keep what the command writes. */
function capturedIo(): { io: DataIo; stdout: () => string; stderr: () => string } {
  const text = { stdout: '', stderr: '' };
  const keeping = (side: keyof typeof text) =>
    new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        text[side] += chunk.toString();
        done();
      },
    });
  const io = { stdout: keeping('stdout'), stderr: keeping('stderr') as unknown as NodeJS.WriteStream };
  return { io, stdout: () => text.stdout, stderr: () => text.stderr };
}

/** Every file of `folder` with its size and time of change: what a refusal must leave as it is. */
const filesOf = (folder: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(folder).map((name) => {
      const stat = statSync(join(folder, name));
      return [name, `${stat.size} bytes, changed ${stat.mtimeMs}`];
    }),
  );

type Command = 'export' | 'backup';

/** Runs `command` onto `target` with PETSTORE_DB=`db`; answers its exit code and standard error. */
async function writeOnto(command: Command, target: string, db: string): Promise<{ code: number; stderr: string }> {
  const { io, stderr } = capturedIo();
  const env = { PETSTORE_DB: db };
  const code =
    command === 'export'
      ? await exportStore({ out: target, all: true, quiet: true }, env, io)
      : await backup(target, { quiet: true }, env, io);
  return { code, stderr: stderr() };
}

const refusal = (command: Command, target: string, what: string) =>
  `petstore: cannot write the ${command} to ${target}: it is ${what} PETSTORE_DB names, which this would destroy: name another file.\n`;

const WAL = 'the -wal file (write-ahead log) of the database';
const SHM = 'the -shm file (shared-memory index) of the database';

describe('a data command writing onto the database it reads', function () {
  this.timeout(30_000);
  let dir: ReturnType<typeof tempDir>;
  let db: string;
  // Held open as a server holds it, so that the -wal and -shm files are there.
  let server: Database.Database | undefined;
  const at = (name: string) => join(dir.path, name);

  /** The database at `path` with PETS pets, left open. */
  const seeded = (path: string): Database.Database => {
    const opened = openSqliteDatabase(path);
    const insert = opened.prepare("INSERT INTO pets (name, category_id, status) VALUES (?, 1, 'available')");
    for (let i = 1; i <= PETS; i += 1) insert.run(`pet ${i}`);
    return opened;
  };

  /** Closes the held database, then checks that `path` opens, passes integrity_check and holds every pet. */
  const expectIntact = (path: string): void => {
    server?.close();
    server = undefined;
    const reopened = openSqliteDatabase(path);
    try {
      expect(reopened.pragma('integrity_check', { simple: true })).to.equal('ok');
      expect(reopened.prepare('SELECT count(*) FROM pets').pluck().get()).to.equal(PETS);
    } finally {
      reopened.close();
    }
  };

  beforeEach(() => {
    dir = tempDir();
    db = at('store.db');
    server = seeded(db);
  });
  afterEach(() => {
    server?.close();
    server = undefined;
    dir.remove();
  });

  for (const command of ['export', 'backup'] as const) {
    it(`${command} refuses the database, its -wal and its -shm, by any path, writing nothing`, async () => {
      symlinkSync(db, at('link.db'));
      symlinkSync(dir.path, at('folder-link'));
      linkSync(db, at('hard.db'));
      linkSync(`${db}-wal`, at('hard.db-wal'));
      const targets = [
        [db, 'the database'],
        [relative(process.cwd(), db), 'the database'],
        [at('link.db'), 'the database'],
        [join(at('folder-link'), 'store.db'), 'the database'],
        [at('hard.db'), 'the database'],
        [`${db}-wal`, WAL],
        [at('hard.db-wal'), WAL],
        [join(at('folder-link'), 'store.db-wal'), WAL],
        [`${db}-shm`, SHM],
        [relative(process.cwd(), `${db}-shm`), SHM],
      ] as const;
      const before = filesOf(dir.path);
      for (const [target, what] of targets) {
        const result = await writeOnto(command, target, db);
        expect(result, target).to.deep.equal({ code: 1, stderr: refusal(command, target, what) });
      }
      expect(filesOf(dir.path), 'nothing written, truncated or left behind').to.deep.equal(before);
      expectIntact(db);
    });

    it(`${command} refuses the -wal a database closed has not made yet, and the database through a PETSTORE_DB that is a link`, async () => {
      server?.close();
      server = undefined;
      symlinkSync(db, at('link.db'));
      const before = filesOf(dir.path);
      expect(before).not.to.have.property('store.db-wal');
      for (const [target, named] of [
        [`${db}-wal`, db],
        [db, at('link.db')],
        [`${db}-shm`, at('link.db')],
      ] as const) {
        const result = await writeOnto(command, target, named);
        expect(result, `${target} with PETSTORE_DB=${named}`).to.deep.equal({
          code: 1,
          stderr: refusal(command, target, target.endsWith('-wal') ? WAL : target.endsWith('-shm') ? SHM : 'the database'),
        });
      }
      expect(filesOf(dir.path)).to.deep.equal(before);
      expectIntact(db);
    });

    it(`${command} refuses a target whose .partial, written first and removed, is the database`, async () => {
      server?.close();
      server = seeded(at('pets.partial'));
      const before = filesOf(dir.path);
      const result = await writeOnto(command, at('pets'), at('pets.partial'));
      expect(result).to.deep.equal({
        code: 1,
        stderr:
          `petstore: cannot write the ${command} to ${at('pets')}: the file written on the way, ${at('pets.partial')}, ` +
          'is the database PETSTORE_DB names, which this would destroy: name another file.\n',
      });
      expect(filesOf(dir.path)).to.deep.equal(before);
      expectIntact(at('pets.partial'));
    });
  }

  it('still writes a file of its own beside the database', async () => {
    for (const command of ['export', 'backup'] as const) expect((await writeOnto(command, at(`own.${command}`), db)).code).to.equal(0);
    expectIntact(db);
  });

  it('copy refuses --to naming the database of --from, or its -wal, by any path', async () => {
    linkSync(db, at('hard.db'));
    const before = filesOf(dir.path);
    for (const to of [relative(process.cwd(), db), at('hard.db'), `${db}-wal`, `${db}-shm`]) {
      const { io, stderr } = capturedIo();
      const code = await copyStore({ from: db, to, quiet: true }, {}, io);
      expect({ code, stderr: stderr() }, to).to.deep.equal({
        code: 2,
        stderr: 'petstore: copy: --from and --to name the same database (or one of its files)\n',
      });
    }
    expect(filesOf(dir.path)).to.deep.equal(before);
    expectIntact(db);
  });
});
