// A race across server processes made to happen on one row: the processes share a PostgreSQL
// schema, the test holds the row's lock with a connection of its own, and another connection
// watches pg_stat_activity until the racing statements all wait on it.
import pg from 'pg';
import { eventually } from './eventually.js';
import { clientFor } from './http-client.js';
import { createTestSchema, type TestSchema } from './postgres.js';
import { baseUrlOf, type ServerProcess, spawnServer, stopIfRunning } from './server-process.js';

/** The schema, the two connections of the test, and the servers of the current test. */
export interface RowLockRace {
  readonly schema: TestSchema;
  /** Holds a row's lock: `BEGIN`, `SELECT … FOR UPDATE`, then `ROLLBACK` to let the racers go. */
  readonly locker: pg.Client;
  /** Resolves once `count` backends wait on a lock in a statement containing `statement` (its SQL text). */
  readonly waiting: (count: number, statement: string, what: string) => Promise<void>;
  /** Starts `count` servers on the schema with `env` (PETSTORE_DB set), and answers a client of each, with `key`. */
  readonly serve: (count: number, key: string, env: Record<string, string>) => Promise<Array<ReturnType<typeof clientFor>>>;
}

/** A fresh schema, its connections and its servers for each test of the suite; ended and dropped after it. */
export function rowLockRaceEachTest(): { current: RowLockRace } {
  const live = { current: undefined as unknown as RowLockRace };
  let instances: ServerProcess[] = [];
  let clients: pg.Client[] = [];
  beforeEach(async () => {
    const schema = await createTestSchema();
    const [locker, watcher] = [0, 1].map(() => new pg.Client({ connectionString: schema.url })) as [pg.Client, pg.Client];
    clients = [locker, watcher];
    await Promise.all(clients.map((client) => client.connect()));
    live.current = {
      schema,
      locker,
      waiting: (count, statement, what) =>
        eventually(
          async () => {
            const { rows } = await watcher.query<{ waiting: string }>(
              `SELECT count(*) AS waiting FROM pg_stat_activity
                WHERE wait_event_type = 'Lock' AND query LIKE $1 AND pid <> pg_backend_pid()`,
              [`%${statement}%`],
            );
            return Number(rows[0]!.waiting) === count;
          },
          what,
          1500,
        ),
      serve: async (count, key, env) => {
        instances = Array.from({ length: count }, () => spawnServer({ ...env, PETSTORE_DB: schema.url, PETSTORE_API_KEYS: key }));
        return Promise.all(instances.map(async (instance) => clientFor(new URL(await baseUrlOf(instance)).origin, key)));
      },
    };
  });
  afterEach(async () => {
    for (const instance of instances) await stopIfRunning(instance);
    instances = [];
    await Promise.all(clients.map((client) => client.end()));
    await live.current.schema.drop();
  });
  return live;
}
