// A database name with white space at either end (PETSTORE_DB='mydb ', ' /srv/pets.db',
// 'memory ') is refused wherever one is read, before anything is created: the SQLite driver
// drops the white space, so the service opened another file than the one it had made 0600,
// made the real one as the umask says, and made 'memory ' a file.
import { readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { openSqliteDatabase } from '../../src/adapters/sqlite/open-sqlite-database.js';
import { copyStore } from '../../src/commands/copy.js';
import { createPetStore } from '../../src/composition/pet-store.js';
import { loadConfig } from '../../src/config/config.js';
import { runCli } from '../support/server-process.js';
import { tempDir } from '../support/temp-dir.js';

const PROBLEM = 'must not begin or end with white space (a space or line break left in by the quoting)';

const PADDED = ['mydb ', ' /srv/pets.db', 'memory '];

describe('a database name with white space at either end', function () {
  this.timeout(60_000);
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => dir.remove());

  describe('from the compiled server and commands, in a folder of their own', () => {
    let busy: Server;
    let busyPort: string;
    // A server that would start fails on a port in use, rather than running on.
    before(async () => {
      busy = createServer();
      await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
      busyPort = String((busy.address() as { port: number }).port);
    });
    after(() => busy.close());

    for (const value of PADDED) {
      it(`refuses PETSTORE_DB=${JSON.stringify(value)} in serve and keys create, creating nothing`, async () => {
        for (const args of [['serve'], ['keys', 'create']]) {
          const result = await runCli(args, { PETSTORE_DB: value, PORT: busyPort }, dir.path);
          expect(readdirSync(dir.path), `${args.join(' ')} created`).to.deep.equal([]);
          expect(result.code, args.join(' ')).to.equal(1);
          expect(result.stderr, args.join(' ')).to.contain(`\n  PETSTORE_DB ${PROBLEM}\n`);
        }
      });
    }
  });

  it('is refused by loadConfig, without repeating the value, whatever white space and whatever kind of database', () => {
    const values = [
      ...PADDED,
      '\tpets.db',
      'pets.db\n',
      ' :memory:',
      'postgres://petstore:s3cret@db/pets ',
      ' postgres://petstore:s3cret@db/pets',
    ];
    for (const value of values)
      expect(loadConfig({ PETSTORE_DB: value }), JSON.stringify(value)).to.deep.equal({
        _tag: 'Left',
        left: [`PETSTORE_DB ${PROBLEM}`],
      });
  });

  it('is refused by createPetStore as db, in text or as the path of a SQLite DatabaseConfig, creating nothing', async () => {
    for (const [db, option] of [
      [join(dir.path, 'mydb '), 'db'],
      [{ kind: 'sqlite', path: join(dir.path, 'mydb ') }, 'db.path'],
    ] as const) {
      const err = await createPetStore({ db }).catch((e: unknown) => e);
      expect(err, JSON.stringify(db)).to.be.instanceOf(TypeError);
      expect((err as Error).message).to.equal(`createPetStore: ${option} ${PROBLEM}`);
    }
    expect(readdirSync(dir.path)).to.deep.equal([]);
  });

  it('is refused by copy as --from or --to, creating nothing', async () => {
    openSqliteDatabase(join(dir.path, 'a.db')).close();
    for (const [from, to, option] of [
      ['memory ', join(dir.path, 'b.db'), '--from'],
      [join(dir.path, 'a.db '), join(dir.path, 'b.db'), '--from'],
      [join(dir.path, 'a.db'), join(dir.path, 'b.db '), '--to'],
    ]) {
      let stderr = '';
      const io = {
        stdout: new Writable({ write: (_chunk, _encoding, done) => done() }),
        stderr: new Writable({
          write(chunk: Buffer, _encoding, done) {
            stderr += chunk.toString();
            done();
          },
        }) as unknown as NodeJS.WriteStream,
      };
      expect(await copyStore({ from: from!, to: to!, quiet: true }, {}, io)).to.equal(2);
      expect(stderr).to.equal(`petstore: copy: ${option} ${PROBLEM}\n`);
    }
    expect(readdirSync(dir.path)).to.deep.equal(['a.db']);
  });
});
