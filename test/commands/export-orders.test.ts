// export, import and copy carry the orders (format version 4): each with its id, pet, status,
// note, times and version; a store restored from them serves them as they were, its inventory
// counting the restored pets, and places the next order above them. Files of format versions
// 1 to 3 still import. On real SQLite files and a real PostgreSQL schema, the commands run in
// this process.
import { readFileSync, writeFileSync } from 'node:fs';
import { expect } from 'chai';
import pg from 'pg';
import { PostgresOrderRepository } from '../../src/adapters/postgres/postgres-order-repository.js';
import { PostgresPetInventory } from '../../src/adapters/postgres/postgres-pet-inventory.js';
import { openSqliteDatabase } from '../../src/adapters/sqlite/open-sqlite-database.js';
import { SqliteOrderRepository } from '../../src/adapters/sqlite/sqlite-order-repository.js';
import { SqlitePetInventory } from '../../src/adapters/sqlite/sqlite-pet-inventory.js';
import { SqlitePetRepository } from '../../src/adapters/sqlite/sqlite-pet-repository.js';
import type { CategoryId, OrderNote, PetId, PetName } from '../../src/domain/index.js';
import { commandsInTempDir, runCommand } from '../support/command-line.js';
import { createTestSchema, describeWithPostgres } from '../support/postgres.js';

const HEADER_V3 = '{"format":"petstore-export","version":3,"petIdsIssued":2}';
const PET_LINES = [
  '{"kind":"pet","id":1,"name":"Rex","categoryId":1,"status":"available","version":1}',
  '{"kind":"pet","id":2,"name":"Tom","categoryId":1,"status":"sold","version":3}',
];
const ORDER_LINE =
  '{"kind":"order","id":1,"petId":2,"status":"delivered","placedAt":"2026-12-01T10:00:00.000Z","updatedAt":"2026-12-01T11:00:00.000Z","version":3}';

describe('export, import and copy of orders', () => {
  const { at, run } = commandsInTempDir();
  /** The records of an export of `db`, its header left out. */
  const content = async (db: string) => (await run(['export'], db)).split('\n').slice(1).join('\n');

  /** A.db with four pets and three orders: one delivered (its pet sold), one cancelled, one placed with a note. */
  async function seed(): Promise<void> {
    const db = openSqliteDatabase(at('a.db'));
    try {
      const pets = new SqlitePetRepository(db);
      const orders = new SqliteOrderRepository(db);
      const ids: PetId[] = [];
      for (const name of ['Rex', 'Tom', 'Kiwi', 'Luna'])
        ids.push((await pets.create({ name: name as PetName, categoryId: 1 as CategoryId, status: 'available' })).id);
      const at = (hour: number) => new Date(Date.UTC(2026, 11, 1, hour));
      const placed = async (petId: PetId, hour: number, note?: string) => {
        const placement = await orders.place({ petId, at: at(hour), ...(note === undefined ? {} : { note: note as OrderNote }) });
        if (placement.kind !== 'placed') throw new Error(`not placed: ${placement.kind}`);
        return placement.order;
      };
      const sold = await placed(ids[0]!, 1);
      await orders.change(sold.order.id, 1, { status: 'delivered', at: at(2), petStatus: 'sold' });
      const freed = await placed(ids[1]!, 3);
      await orders.change(freed.order.id, 1, { status: 'cancelled', at: at(4), petStatus: 'available' });
      await placed(ids[2]!, 5, 'a gift ✓');
    } finally {
      db.close();
    }
  }

  it('exports the orders after the pets, as format version 4, and import and copy restore them as they were', async () => {
    await seed();
    await run(['export', '--out', at('a.ndjson')], at('a.db'));
    const lines = readFileSync(at('a.ndjson'), 'utf8').trimEnd().split('\n');
    expect(JSON.parse(lines[0]!)).to.deep.equal({ format: 'petstore-export', version: 4, petIdsIssued: 4 });
    expect(lines.slice(1).map((line) => (JSON.parse(line) as { kind: string }).kind)).to.deep.equal([
      ...Array<string>(4).fill('pet'),
      ...Array<string>(3).fill('order'),
    ]);
    expect(lines[7]).to.equal(
      '{"kind":"order","id":3,"petId":3,"status":"placed","placedAt":"2026-12-01T05:00:00.000Z","updatedAt":"2026-12-01T05:00:00.000Z","note":"a gift ✓","version":1}',
    );

    await run(['import', at('a.ndjson')], at('b.db'));
    expect(await run(['import', at('a.ndjson')], at('b.db')), 'a second import changes nothing').to.contain('0 new, 7 stored already');
    await run(['copy', '--from', at('a.db'), '--to', at('c.db')], at('a.db'));
    const expected = await content(at('a.db'));
    for (const db of ['b.db', 'c.db']) {
      expect(await content(at(db)), db).to.equal(expected);
      const restored = openSqliteDatabase(at(db));
      try {
        expect(await new SqlitePetInventory(restored).count(), db).to.deep.equal({ available: 2, pending: 1, sold: 1 });
        const next = await new SqliteOrderRepository(restored).place({ petId: 4 as PetId, at: new Date() });
        expect(next.kind === 'placed' && next.order.order.id, db).to.equal(4);
      } finally {
        restored.close();
      }
    }
  });

  it('still imports a file of format version 3, which has no orders, and refuses an order line in one', async () => {
    writeFileSync(at('v3.ndjson'), `${HEADER_V3}\n${PET_LINES.join('\n')}\n`);
    await run(['import', at('v3.ndjson')], at('b.db'));
    expect(await content(at('b.db'))).to.equal(`${PET_LINES.join('\n')}\n`);
    writeFileSync(at('v3-order.ndjson'), `${HEADER_V3}\n${PET_LINES.join('\n')}\n${ORDER_LINE}\n`);
    const refused = await runCommand(['import', at('v3-order.ndjson')], { PETSTORE_DB: at('c.db') });
    expect([refused.code, refused.stderr], refused.stderr).to.satisfy(
      ([code, stderr]: [number, string]) => code === 1 && stderr.includes('line 4: is an order, which format version 3 does not have'),
    );
  });

  it('refuses an order line of version 4 with an unknown status or a note too long, naming the line', async () => {
    for (const [line, message] of [
      [ORDER_LINE.replace('"delivered"', '"lost"'), 'line 4: /status must be one of placed, approved, delivered, cancelled'],
      [ORDER_LINE.replace('"version":3', `"note":"${'x'.repeat(501)}","version":3`), 'line 4: /note'],
    ] as const) {
      writeFileSync(at('v4.ndjson'), `${HEADER_V3.replace('"version":3', '"version":4')}\n${PET_LINES.join('\n')}\n${line}\n`);
      const result = await runCommand(['import', at('v4.ndjson')], { PETSTORE_DB: at('d.db') });
      expect([result.code, result.stderr.includes(message)], result.stderr).to.deep.equal([1, true]);
    }
  });

  describeWithPostgres('to and from PostgreSQL', () => {
    it('copies the orders to PostgreSQL and back, byte for byte; there the inventory counts the pets, and the next order is above', async function () {
      this.timeout(20_000);
      await seed();
      const schema = await createTestSchema();
      try {
        await run(['copy', '--from', at('a.db'), '--to', schema.url], at('a.db'));
        expect(await content(schema.url)).to.equal(await content(at('a.db')));
        await run(['export', '--out', at('pg.ndjson')], schema.url);
        await run(['import', at('pg.ndjson')], at('d.db'));
        await run(['copy', '--from', schema.url, '--to', at('e.db')], at('a.db'));
        for (const db of ['d.db', 'e.db']) expect(await content(at(db)), db).to.equal(await content(at('a.db')));
        const pool = new pg.Pool({ connectionString: schema.url, max: 1 });
        try {
          expect(await new PostgresPetInventory(pool).count()).to.deep.equal({ available: 2, pending: 1, sold: 1 });
          const next = await new PostgresOrderRepository(pool, false).place({ petId: 4 as PetId, at: new Date() });
          expect(next.kind === 'placed' && next.order.order.id).to.equal(4);
        } finally {
          await pool.end();
        }
      } finally {
        await schema.drop();
      }
    });
  });
});
