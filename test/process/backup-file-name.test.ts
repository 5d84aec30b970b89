// A backup is written under the name given, exactly: better-sqlite3 trims the names it is
// given, so a name beginning with a space had its copy written elsewhere, readable by all,
// and an empty file left under the name, with the backup reported taken.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { openSqliteDatabase } from '../../src/adapters/sqlite/open-sqlite-database.js';
import { runCli } from '../support/server-process.js';
import { tempDir } from '../support/temp-dir.js';

describe('petstore backup to a name beginning with a space', function () {
  this.timeout(30_000);
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => dir.remove());

  it('writes the copy under that name, readable by its owner alone, and nothing beside it', async () => {
    const db = openSqliteDatabase(join(dir.path, 'pets.db'));
    db.prepare("INSERT INTO pets (name, category_id, status) VALUES ('Rex', 1, 'available')").run();
    db.close();
    const result = await runCli(['backup', ' copy.db'], { PETSTORE_DB: 'pets.db' }, dir.path);
    expect(result.code, result.stderr).to.equal(0);
    expect(readdirSync(dir.path).sort()).to.deep.equal([' copy.db', 'pets.db']);
    const copy = join(dir.path, ' copy.db');
    expect((statSync(copy).mode & 0o777).toString(8)).to.equal('600');
    const opened = new Database(copy, { readonly: true });
    try {
      expect(opened.prepare('SELECT name FROM pets').pluck().all()).to.deep.equal(['Rex']);
    } finally {
      opened.close();
    }
  });
});
