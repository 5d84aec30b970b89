// Group commit on PostgreSQL: the creates of one event-loop turn are one statement, so one
// transaction and one WAL flush; a write the database refuses fails alone; and the writes that
// complete an idempotency record are stored only while their claim holds it, once per record.
import { expect } from 'chai';
import * as O from 'fp-ts/lib/Option.js';
import pg from 'pg';
import { openPostgresPool } from '../../../src/adapters/postgres/create-postgres-pool.js';
import { PostgresIdempotencyStore } from '../../../src/adapters/postgres/postgres-idempotency-store.js';
import { PostgresPetRepository } from '../../../src/adapters/postgres/postgres-pet-repository.js';
import type { IdempotencyHold, PetDraft, PetStatus } from '../../../src/domain/index.js';
import { claimHold, draft } from '../../contract/pet-repository.contract.js';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../../support/postgres.js';

describeWithPostgres('PostgreSQL group commit', () => {
  let schema: TestSchema;
  let pool: pg.Pool;
  let repo: PostgresPetRepository;
  // The transaction that wrote each pet, by id: xmin is the inserting transaction's id.
  const writers = async (): Promise<Map<number, string>> => {
    const { rows } = await pool.query<{ id: string; xmin: string }>('SELECT id, xmin::text FROM pets ORDER BY id');
    return new Map(rows.map((row) => [Number(row.id), row.xmin]));
  };

  beforeEach(async () => {
    schema = await createTestSchema();
    pool = await openPostgresPool({ url: schema.url, poolSize: 4 });
    repo = new PostgresPetRepository(pool);
  });
  afterEach(async () => {
    await pool.end();
    await schema.drop();
  });

  it('stores the creates of one event-loop turn in one transaction, with ids in the order they were asked for', async () => {
    const created = await Promise.all(Array.from({ length: 30 }, (_, i) => repo.create(draft(`pet ${i}`))));
    const ids = created.map((pet) => pet.id);
    expect(ids).to.deep.equal([...ids].sort((a, b) => a - b));
    expect(created.map((pet) => pet.name)).to.deep.equal(Array.from({ length: 30 }, (_, i) => `pet ${i}`));
    const byWriter = await writers();
    expect(byWriter.size).to.equal(30);
    expect(new Set(byWriter.values()).size, 'transactions that wrote the 30 pets').to.equal(1);
  });

  it('stores the creates asked for while a batch is written in the next one, not in one transaction each', async () => {
    const first = Array.from({ length: 5 }, (_, i) => repo.create(draft(`first ${i}`)));
    // A turn later: the first batch is on its way to the database, so these wait and go together.
    await new Promise((resolve) => setImmediate(resolve));
    const second = Array.from({ length: 5 }, (_, i) => repo.create(draft(`second ${i}`)));
    const created = await Promise.all([...first, ...second]);
    const byWriter = await writers();
    const transactionOf = (index: number) => byWriter.get(created[index]!.id);
    expect(new Set(created.slice(0, 5).map((_, i) => transactionOf(i))).size).to.equal(1);
    expect(new Set(created.slice(5).map((_, i) => transactionOf(i + 5))).size).to.equal(1);
    expect(transactionOf(0)).to.not.equal(transactionOf(5));
  });

  it('fails a write the database refuses alone: the others of its batch are stored', async () => {
    const refused: PetDraft = { ...draft('refused'), status: 'lost' as PetStatus };
    const results = await Promise.allSettled([repo.create(draft('a')), repo.create(refused), repo.create(draft('c'))]);
    expect(results.map((r) => r.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).to.contain('check constraint');
    const { rows } = await pool.query<{ name: string }>('SELECT name FROM pets ORDER BY id');
    expect(rows.map((row) => row.name)).to.deep.equal(['a', 'c']);
  });

  it('stores, in one batch, each held record once and no write whose claim lost its record', async () => {
    const store = new PostgresIdempotencyStore(pool);
    const now = new Date('2030-01-01T00:00:00Z');
    const hold = (key: string, at = now): Promise<IdempotencyHold> => claimHold(store, key, at);
    const held = await hold('held');
    const lost = await hold('lost');
    const takenOver = await hold('lost', new Date(now.getTime() + 100));
    const [, ...answers] = await Promise.all([
      repo.create(draft('plain')).then(O.some),
      repo.createCompleting(draft('held first'), held),
      repo.createCompleting(draft('held again'), held),
      repo.createCompleting(draft('lost'), lost),
      repo.createCompleting(draft('taken over'), takenOver),
    ]);
    expect(answers.map((answer) => (O.isSome(answer) ? answer.value.name : 'none'))).to.deep.equal([
      'held first',
      'none',
      'none',
      'taken over',
    ]);
    const { rows } = await pool.query<{ name: string }>('SELECT name FROM pets ORDER BY id');
    expect(rows.map((row) => row.name)).to.deep.equal(['plain', 'held first', 'taken over']);
    expect(new Set((await writers()).values()).size, 'one transaction').to.equal(1);
    const later = new Date(now.getTime() + 1000);
    const replay = await store.claim({
      scope: 'caller',
      key: 'held',
      fingerprint: 'f',
      now: later,
      expiresAt: later,
      leaseExpiresAt: later,
    });
    expect(replay).to.deep.equal({ kind: 'completed', fingerprint: 'f', pet: (answers[0] as O.Some<unknown>).value });
  });
});
