// The trace context a change records with its event: the one of the work under way when the
// change was asked for, even where a group commit (SQLite's transaction, PostgreSQL's batch
// statement) runs the write later, in a turn where another request's work is under way; none
// when nothing is traced.
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { MemoryEventOutbox } from '../../../src/adapters/memory/memory-event-outbox.js';
import { MemoryPetRepository } from '../../../src/adapters/memory/memory-pet-repository.js';
import { openPostgresPool } from '../../../src/adapters/postgres/create-postgres-pool.js';
import { PostgresEventOutbox } from '../../../src/adapters/postgres/postgres-event-outbox.js';
import { PostgresPetRepository } from '../../../src/adapters/postgres/postgres-pet-repository.js';
import { openSqliteDatabase } from '../../../src/adapters/sqlite/open-sqlite-database.js';
import { SqliteEventOutbox } from '../../../src/adapters/sqlite/sqlite-event-outbox.js';
import { SqlitePetRepository } from '../../../src/adapters/sqlite/sqlite-pet-repository.js';
import { cloudEventJson, traceContextOfCloudEvent } from '../../../src/adapters/shared/cloud-event.js';
import type { CurrentTraceContext } from '../../../src/adapters/shared/trace-context.js';
import { type EventOutbox, NewPet, type PetDraft, type PetRepository, type TraceContext } from '../../../src/domain/index.js';
import { createTestSchema, describeWithPostgres } from '../../support/postgres.js';

const A: TraceContext = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', tracestate: 'a=1' };
const B: TraceContext = { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' };

const draft = (name: string): PetDraft => {
  const decoded = NewPet.decode({ name, categoryId: 1, status: 'available' });
  if (E.isLeft(decoded)) throw new Error('expected a valid pet');
  return decoded.right as PetDraft;
};

type Open = (current: CurrentTraceContext) => Promise<{ pets: PetRepository; outbox: EventOutbox; close: () => Promise<void> }>;

const storages: Record<string, { readonly open: Open; readonly describe: (title: string, body: () => void) => void }> = {
  memory: {
    describe,
    open: (current) => {
      const outbox = new MemoryEventOutbox(current);
      return Promise.resolve({ pets: new MemoryPetRepository(undefined, outbox), outbox, close: () => Promise.resolve() });
    },
  },
  SQLite: {
    describe,
    open: (current) => {
      const db = openSqliteDatabase(':memory:');
      const outbox = new SqliteEventOutbox(db, current);
      return Promise.resolve({ pets: new SqlitePetRepository(db, outbox), outbox, close: () => Promise.resolve(void db.close()) });
    },
  },
  PostgreSQL: {
    describe: describeWithPostgres,
    open: async (current) => {
      const schema = await createTestSchema();
      const pool = await openPostgresPool({ url: schema.url, poolSize: 2 });
      const close = async () => {
        await pool.end();
        await schema.drop();
      };
      return { pets: new PostgresPetRepository(pool, true, current), outbox: new PostgresEventOutbox(pool), close };
    },
  },
};

for (const [name, storage] of Object.entries(storages)) {
  storage.describe(`the trace context of events, ${name}`, () => {
    it('is the one under way when each change was asked for, for creates of one turn too, and none when nothing is traced', async () => {
      let current: TraceContext | undefined = A;
      const { pets, outbox, close } = await storage.open(() => current);
      try {
        // Asked for in one turn, each under another context; the group commit writes them after it.
        const first = pets.create(draft('First'));
        current = B;
        const second = pets.create(draft('Second'));
        current = undefined;
        const third = pets.create(draft('Third'));
        await Promise.all([first, second, third]);
        const { events } = await outbox.read('in-process', 10);
        expect(events.map((event) => event.traceContext)).to.deep.equal([A, B, undefined]);
        expect(events[2]).not.to.have.property('traceContext');
        // The CloudEvent carries it as the Distributed Tracing extension, and it is read back.
        expect(traceContextOfCloudEvent(cloudEventJson(events[0]!, '/petstore'))).to.deep.equal(A);
        expect(JSON.parse(cloudEventJson(events[1]!, '/petstore')))
          .to.include({ traceparent: B.traceparent })
          .and.not.have.property('tracestate');
        expect(traceContextOfCloudEvent(cloudEventJson(events[2]!, '/petstore'))).to.equal(undefined);
      } finally {
        await close();
      }
    });
  });
}
