// Group commit on a real SQLite file, watched from a second connection: the writes of one
// event-loop turn become visible together (one transaction), whoever asked for them (the
// relay's marks too), a failing write is undone alone, and nothing is answered before it is
// committed.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { groupCommit } from '../../../src/adapters/sqlite/group-commit.js';
import { openSqliteDatabase } from '../../../src/adapters/sqlite/open-sqlite-database.js';
import { SqliteEventOutbox } from '../../../src/adapters/sqlite/sqlite-event-outbox.js';
import { SqlitePetRepository } from '../../../src/adapters/sqlite/sqlite-pet-repository.js';
import { draft } from '../../contract/pet-repository.contract.js';
import { tempDir } from '../../support/temp-dir.js';

describe('SQLite group commit', () => {
  let dir: ReturnType<typeof tempDir>;
  let writer: Database.Database;
  let reader: Database.Database;
  const committedRows = (): number => (reader.prepare('SELECT count(*) AS n FROM notes').get() as { n: number }).n;
  /** `write` of one text through the writer's group commit. */
  const grouped =
    <O>(write: (text: string) => O) =>
    (text: string): Promise<O> =>
      groupCommit(writer)(() => write(text));

  beforeEach(() => {
    dir = tempDir();
    const file = join(dir.path, 'group.db');
    writer = new Database(file);
    writer.pragma('journal_mode = WAL');
    writer.pragma('synchronous = FULL');
    writer.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL CHECK (text <> ''))");
    reader = new Database(file);
  });
  afterEach(() => {
    reader.close();
    writer.close();
    dir.remove();
  });

  it('writes the calls of one event-loop turn in one transaction: no other connection sees any before all are committed', async () => {
    const insert = writer.prepare('INSERT INTO notes (text) VALUES (?)');
    const seenDuringBatch: number[] = [];
    const write = grouped((text: string) => {
      seenDuringBatch.push(committedRows());
      return Number(insert.run(text).lastInsertRowid);
    });
    const ids = await Promise.all(Array.from({ length: 25 }, (_, i) => write(`note ${i}`)));
    expect(ids).to.deep.equal(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(seenDuringBatch).to.deep.equal(Array.from({ length: 25 }, () => 0));
    expect(committedRows()).to.equal(25);
  });

  it('answers each call only once its transaction is committed, and starts a new transaction in a later turn', async () => {
    const insert = writer.prepare('INSERT INTO notes (text) VALUES (?)');
    const write = grouped((text: string) => Number(insert.run(text).lastInsertRowid));
    await write('first');
    expect(committedRows()).to.equal(1);
    const seen: number[] = [];
    const second = write('second').then(() => seen.push(committedRows()));
    await second;
    expect(seen).to.deep.equal([2]);
  });

  it('undoes a failing write alone: the others of its turn are committed and answered', async () => {
    const insert = writer.prepare('INSERT INTO notes (text) VALUES (?)');
    const write = grouped((text: string) => Number(insert.run(text).lastInsertRowid));
    const results = await Promise.allSettled([write('a'), write(''), write('c')]);
    expect(results.map((r) => r.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).to.contain('CHECK constraint failed');
    expect(reader.prepare('SELECT text FROM notes ORDER BY id').pluck().all()).to.deep.equal(['a', 'c']);
  });

  it('fails every write of the turn, and stores none, when the database stays locked by another connection', async () => {
    writer.pragma('busy_timeout = 50');
    const insert = writer.prepare('INSERT INTO notes (text) VALUES (?)');
    const write = grouped((text: string) => Number(insert.run(text).lastInsertRowid));
    reader.exec('BEGIN IMMEDIATE');
    const results = await Promise.allSettled([write('a'), write('b')]);
    reader.exec('ROLLBACK');
    expect(results.map((r) => r.status)).to.deep.equal(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).to.match(/locked|busy/i);
    expect(committedRows()).to.equal(0);
  });

  it('is one per connection: writes asked for by different callers in one turn share one transaction', async () => {
    const insert = writer.prepare('INSERT INTO notes (text) VALUES (?)');
    const seen: number[] = [];
    const first = groupCommit(writer);
    const second = groupCommit(writer);
    await Promise.all([first(() => insert.run('first caller')), second(() => seen.push(committedRows()))]);
    expect(seen).to.deep.equal([0]);
    expect(committedRows()).to.equal(1);
  });

  it("commits the relay's mark with the creates of its turn, not on its own", async () => {
    const db = openSqliteDatabase(join(dir.path, 'events.db'));
    const watcher = new Database(join(dir.path, 'events.db'), { readonly: true });
    const committed = (): { pets: number; through: number | null } => ({
      pets: watcher.prepare<[], number>('SELECT count(*) FROM pets').pluck().get()!,
      through: watcher.prepare<[], number | null>('SELECT max(through) FROM outbox_marks').pluck().get()!,
    });
    try {
      const outbox = new SqliteEventOutbox(db);
      const pets = new SqlitePetRepository(db, outbox);
      await pets.create(draft('relayed'));
      const batch = await outbox.read('nats', 10);
      const [waiting] = batch.events;
      const seenInTurn: ReturnType<typeof committed>[] = [];
      await Promise.all([
        pets.create(draft('beside the mark')),
        outbox.markTaken('nats', batch.through, new Date()),
        groupCommit(db)(() => seenInTurn.push(committed())),
      ]);
      expect(seenInTurn).to.deep.equal([{ pets: 1, through: null }]);
      expect(committed()).to.deep.equal({ pets: 2, through: waiting!.sequence });
    } finally {
      watcher.close();
      db.close();
    }
  });

  it('gives the concurrent creates of the pet repository unique, increasing ids, all stored', async () => {
    const db = openSqliteDatabase(join(dir.path, 'pets.db'));
    try {
      const pets = new SqlitePetRepository(db);
      const created = await Promise.all(Array.from({ length: 40 }, (_, i) => pets.create(draft(`pet ${i}`))));
      expect(created.map((pet) => pet.id)).to.deep.equal(Array.from({ length: 40 }, (_, i) => i + 1));
      expect(created.map((pet) => pet.name)).to.deep.equal(Array.from({ length: 40 }, (_, i) => `pet ${i}`));
      expect((db.prepare('SELECT count(*) AS n FROM pets').get() as { n: number }).n).to.equal(40);
    } finally {
      db.close();
    }
  });
});
