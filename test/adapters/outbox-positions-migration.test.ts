// Each transport at its own pace (the outbox's positions per transport, on SQLite and
// PostgreSQL). A store whose outbox holds events already relayed and events still waiting is
// upgraded in place: every transport carries on from the relay's position, so every event that
// waited still waits for each of them, and what was relayed is pruned as before.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { POSTGRES_MIGRATIONS } from '../../src/adapters/postgres/migrations.js';
import { PostgresEventOutbox } from '../../src/adapters/postgres/postgres-event-outbox.js';
import { PostgresPetRepository } from '../../src/adapters/postgres/postgres-pet-repository.js';
import { SQLITE_MIGRATIONS } from '../../src/adapters/sqlite/migrations.js';
import { SqliteEventOutbox } from '../../src/adapters/sqlite/sqlite-event-outbox.js';
import { SqlitePetRepository } from '../../src/adapters/sqlite/sqlite-pet-repository.js';
import type { CategoryId, EventOutbox, PetName, PetRepository } from '../../src/domain/index.js';
import { describeWithPostgres } from '../support/postgres.js';
import { upgradedPostgres, upgradedSqlite } from '../support/schema-upgrade.js';

// Found by content, not by number, so that the test holds when migrations are renumbered at a merge.
const SQLITE_STEPS_BEFORE = SQLITE_MIGRATIONS.findIndex((sql) => sql.includes('CREATE TABLE outbox_marks'));
const POSTGRES_STEPS_BEFORE = POSTGRES_MIGRATIONS.findIndex((migration) => migration.name === 'outbox positions per transport');
const TRANSPORTS = ['webhooks', 'nats', 'in-process'];

/** Each transport reads `waiting` (event ids), then, once a change is made, that change's event after them. */
async function expectEveryTransportCarriesOn(outbox: EventOutbox, pets: PetRepository, waiting: readonly string[]): Promise<void> {
  for (const transport of TRANSPORTS)
    expect(
      (await outbox.read(transport, 10)).events.map((event) => event.id),
      transport,
    ).to.deep.equal(waiting);
  const pet = await pets.create({ name: 'After' as PetName, categoryId: 1 as CategoryId, status: 'available' });
  for (const transport of TRANSPORTS) {
    const { events } = await outbox.read(transport, 10);
    expect(events.map((event) => event.id).slice(0, -1), transport).to.deep.equal(waiting);
    expect(events.at(-1)?.petId).to.equal(pet.id);
  }
}

describe('the outbox: upgrading to positions per transport', () => {
  it('SQLite: every transport carries on from the relay marks, and what was relayed is pruned by them', () =>
    upgradedSqlite(
      SQLITE_STEPS_BEFORE,
      (old) => {
        const insert = old.prepare('INSERT INTO events (id, type, pet_id, data, time) VALUES (?, ?, ?, ?, ?)');
        for (let i = 1; i <= 5; i++) insert.run(`event-${i}`, 'petstore.pet.created', i, `{"id":${i}}`, 500 + i);
        // Passes at 1000 (through 2) and 2000 (through 3); 4 and 5 wait.
        old.exec('INSERT INTO relay_marks (through, at) VALUES (2, 1000), (3, 2000)');
      },
      async (db) => {
        const outbox = new SqliteEventOutbox(db);
        for (const transport of TRANSPORTS) expect(await outbox.backlog(transport)).to.deep.equal({ count: 2, oldest: new Date(504) });
        expect(await outbox.prune(new Date(1500), TRANSPORTS)).to.equal(2);
        await expectEveryTransportCarriesOn(outbox, new SqlitePetRepository(db, outbox), ['event-4', 'event-5']);
      },
    ));

  describeWithPostgres('PostgreSQL', () => {
    it('every transport carries on after the events relayed, whatever their sequences, and those are pruned', async () => {
      const ids = Array.from({ length: 5 }, () => randomUUID());
      await upgradedPostgres(
        POSTGRES_STEPS_BEFORE,
        async (pool) => {
          // Sequences 1 to 5: 1, 2 and 4 relayed (4 committed before 3, as happens on PostgreSQL), 3 and 5 waiting.
          const relayedAt = [new Date(1000), new Date(1000), null, new Date(2000), null];
          for (const [i, id] of ids.entries())
            await pool.query('INSERT INTO events (id, type, pet_id, data, time, relayed_at) VALUES ($1, $2, $3, $4, $5, $6)', [
              id,
              'petstore.pet.created',
              i + 1,
              { id: i + 1 },
              new Date(500 + i),
              relayedAt[i],
            ]);
        },
        async (pool) => {
          const outbox = new PostgresEventOutbox(pool);
          for (const transport of TRANSPORTS) expect(await outbox.backlog(transport)).to.deep.equal({ count: 2, oldest: new Date(502) });
          // The relayed events' retention counts from the last pass before the upgrade.
          expect(await outbox.prune(new Date(1500), TRANSPORTS)).to.equal(0);
          expect(await outbox.prune(new Date(2500), TRANSPORTS)).to.equal(3);
          await expectEveryTransportCarriesOn(outbox, new PostgresPetRepository(pool, true), [ids[2]!, ids[4]!]);
        },
      );
    });
  });
});
