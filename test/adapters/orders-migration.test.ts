// The store adds orders and the inventory (the orders migration on SQLite and PostgreSQL). A
// database made with every step before it, and filled, is upgraded in place: its pets stay as
// they were, the inventory counts them, and they can be ordered at once.
import { expect } from 'chai';
import { POSTGRES_MIGRATIONS } from '../../src/adapters/postgres/migrations.js';
import { PostgresOrderRepository } from '../../src/adapters/postgres/postgres-order-repository.js';
import { PostgresPetInventory } from '../../src/adapters/postgres/postgres-pet-inventory.js';
import { SQLITE_MIGRATIONS } from '../../src/adapters/sqlite/migrations.js';
import { SqliteOrderRepository } from '../../src/adapters/sqlite/sqlite-order-repository.js';
import { SqlitePetInventory } from '../../src/adapters/sqlite/sqlite-pet-inventory.js';
import type { OrderRepository, PetId, PetInventory } from '../../src/domain/index.js';
import { describeWithPostgres } from '../support/postgres.js';
import { upgradedPostgres, upgradedSqlite } from '../support/schema-upgrade.js';

// Found by content, not by number, so that the test holds when migrations are renumbered at a merge.
const SQLITE_STEPS_BEFORE = SQLITE_MIGRATIONS.findIndex((sql) => sql.includes('CREATE TABLE orders'));
const POSTGRES_STEPS_BEFORE = POSTGRES_MIGRATIONS.findIndex((migration) => migration.name === 'orders and inventory');
const PETS = `INSERT INTO pets (name, category_id, status) VALUES ('Rex', 1, 'available'), ('Tom', 1, 'available'), ('Ann', 2, 'pending'), ('Sam', 3, 'sold')`;

async function expectStoreWorks(inventory: PetInventory, orders: OrderRepository): Promise<void> {
  expect(await inventory.count()).to.deep.equal({ available: 2, pending: 1, sold: 1 });
  const placed = await orders.place({ petId: 1 as PetId, at: new Date(0) });
  expect(placed.kind).to.equal('placed');
  expect(await inventory.count()).to.deep.equal({ available: 1, pending: 2, sold: 1 });
}

describe('orders: upgrading a database of the steps before', () => {
  it('SQLite: keeps the pets, counts them, and orders one', () =>
    upgradedSqlite(
      SQLITE_STEPS_BEFORE,
      (old) => old.exec(PETS),
      async (db) => {
        expect(db.prepare('SELECT name, status, version FROM pets WHERE id = 4').get()).to.deep.equal({
          name: 'Sam',
          status: 'sold',
          version: 1,
        });
        await expectStoreWorks(new SqlitePetInventory(db), new SqliteOrderRepository(db));
      },
    ));

  describeWithPostgres('PostgreSQL', () => {
    it('keeps the pets, counts them, and orders one', () =>
      upgradedPostgres(
        POSTGRES_STEPS_BEFORE,
        (pool) => pool.query(PETS),
        async (pool) => {
          expect((await pool.query('SELECT name, status FROM pets WHERE id = 4')).rows).to.deep.equal([{ name: 'Sam', status: 'sold' }]);
          await expectStoreWorks(new PostgresPetInventory(pool), new PostgresOrderRepository(pool));
        },
      ));
  });
});
