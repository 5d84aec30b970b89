// The SQLite outbox becomes an append-only log with relay marks. A database whose outbox holds
// events already relayed, events waiting and a sequence past its last row is upgraded in place:
// what was relayed stays relayed, what waited still waits, and no sequence is ever reused.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { SQLITE_MIGRATIONS } from '../../../src/adapters/sqlite/migrations.js';
import { openSqliteDatabase } from '../../../src/adapters/sqlite/open-sqlite-database.js';
import { SqliteEventOutbox } from '../../../src/adapters/sqlite/sqlite-event-outbox.js';
import { SqlitePetRepository } from '../../../src/adapters/sqlite/sqlite-pet-repository.js';
import type { CategoryId, PetName } from '../../../src/domain/index.js';
import { tempDir } from '../../support/temp-dir.js';

// Found by content, not by number, so that the test holds when migrations are renumbered at a merge.
const STEPS_BEFORE = SQLITE_MIGRATIONS.findIndex((sql) => sql.includes('CREATE TABLE relay_marks'));

const TRANSPORTS = ['webhooks', 'nats', 'in-process'];

describe('the SQLite outbox: upgrading to the append-only log', () => {
  it('keeps relayed events relayed, waiting ones waiting, and the sequence going on past the largest ever used', async () => {
    expect(STEPS_BEFORE).to.be.above(0);
    const dir = tempDir();
    try {
      const file = join(dir.path, 'petstore.db');
      const old = new Database(file);
      for (const step of SQLITE_MIGRATIONS.slice(0, STEPS_BEFORE)) old.exec(step);
      old.pragma(`user_version = ${STEPS_BEFORE}`);
      const insert = old.prepare('INSERT INTO events (id, type, pet_id, data, time, relayed_at) VALUES (?, ?, ?, ?, ?, ?)');
      // Sequences 1..6: 1 and 2 relayed in one pass, 3 in the next, 4 and 5 waiting, 6 gone.
      const relayedAt = [1000, 1000, 2000, null, null, null];
      relayedAt.forEach((at, i) => insert.run(`event-${i + 1}`, 'petstore.pet.created', i + 1, `{"id":${i + 1}}`, 500 + i, at));
      old.prepare('DELETE FROM events WHERE sequence = 6').run();
      old.close();

      const db = openSqliteDatabase(file);
      try {
        expect(db.pragma('user_version', { simple: true })).to.equal(SQLITE_MIGRATIONS.length);
        const outbox = new SqliteEventOutbox(db);
        // Through the later upgrade too, to a position per transport: each carries on from the relay's.
        for (const transport of TRANSPORTS) {
          expect((await outbox.read(transport, 10)).events.map((event) => event.id)).to.deep.equal(['event-4', 'event-5']);
          expect(await outbox.backlog(transport)).to.deep.equal({ count: 2, oldest: new Date(503) });
        }

        // The pass at 1000 is pruned, the one at 2000 kept; waiting events never are.
        expect(await outbox.prune(new Date(1500), TRANSPORTS)).to.equal(2);
        expect(db.prepare('SELECT sequence FROM events ORDER BY sequence').pluck().all()).to.deep.equal([3, 4, 5]);

        const pets = new SqlitePetRepository(db, outbox);
        await pets.create({ name: 'Rex' as PetName, categoryId: 1 as CategoryId, status: 'available' });
        expect((await outbox.read('nats', 10)).events.map((event) => event.sequence)).to.deep.equal([4, 5, 7]);
      } finally {
        db.close();
      }
    } finally {
      dir.remove();
    }
  });
});
