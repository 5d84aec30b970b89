// One storage fixture for every contract suite: each port's adapters run on memory, SQLite in
// memory, SQLite on a file (in a new folder) and PostgreSQL (a fresh schema, skipped with a
// reason when no server is configured).
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { Pool } from 'pg';
import { openPostgresPool } from '../../src/adapters/postgres/create-postgres-pool.js';
import { openSqliteDatabase, SQLITE_IN_MEMORY } from '../../src/adapters/sqlite/open-sqlite-database.js';
import { migratedTestSchema } from './migrated-test-schemas.js';
import { describeWithPostgres } from './postgres.js';
import { tempDir } from './temp-dir.js';

export interface StorageAdapters<A> {
  memory(): A;
  sqlite(db: Database.Database): A;
  postgres(pool: Pool): A;
}

export type OpenAdapter<A> = () => Promise<{ adapter: A; close: () => Promise<void> }>;

/** Calls `contract` once per storage, with a function that opens a fresh adapter on it. */
export function forEveryStorage<A>(adapters: StorageAdapters<A>, contract: (name: string, open: OpenAdapter<A>) => void): void {
  contract('memory', () => Promise.resolve({ adapter: adapters.memory(), close: () => Promise.resolve() }));

  contract('SQLite in memory', () => {
    const db = openSqliteDatabase(SQLITE_IN_MEMORY);
    return Promise.resolve({ adapter: adapters.sqlite(db), close: () => Promise.resolve(void db.close()) });
  });

  contract('SQLite on a file', () => {
    const dir = tempDir();
    const db = openSqliteDatabase(join(dir.path, 'nested', 'petstore.db'));
    const close = (): Promise<void> => {
      db.close();
      dir.remove();
      return Promise.resolve();
    };
    return Promise.resolve({ adapter: adapters.sqlite(db), close });
  });

  describeWithPostgres('PostgreSQL', () => {
    contract('PostgreSQL', async () => {
      const schema = await migratedTestSchema();
      const pool = await openPostgresPool({ url: schema.url, poolSize: 4 });
      return {
        adapter: adapters.postgres(pool),
        close: async () => {
          await pool.end();
          await schema.drop();
        },
      };
    });
  });
}
