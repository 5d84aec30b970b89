// What the SQLite archive promises beyond the StoreArchive contract: the memory of the
// connection it reads and writes through does not grow with the file.
import { expect } from 'chai';
import { openSqliteDatabase, SQLITE_IN_MEMORY } from '../../../src/adapters/sqlite/open-sqlite-database.js';
import { SqliteStoreArchive } from '../../../src/adapters/sqlite/sqlite-archive.js';

describe('SQLite archive', () => {
  it("keeps its connection's page cache at SQLite's default of 2,000 KiB", () => {
    const db = openSqliteDatabase(SQLITE_IN_MEMORY);
    try {
      new SqliteStoreArchive(db);
      expect(db.pragma('cache_size', { simple: true })).to.equal(-2000);
    } finally {
      db.close();
    }
  });
});
