// The storages an HTTP suite runs on: memory, a SQLite file, and a PostgreSQL schema (when a
// test server is configured), each a fresh database per test.
import { join } from 'node:path';
import { migratedTestSchema } from './migrated-test-schemas.js';
import { describeWithPostgres } from './postgres.js';
import { tempDir } from './temp-dir.js';
import type { TestDatabase } from './test-server.js';

/** Calls `suites` once per storage, with its name and the factory of a fresh database of it. */
export function forEveryHttpStorage(suites: (name: string, database: () => TestDatabase | Promise<TestDatabase>) => void): void {
  suites('the memory adapter', () => ({ config: { kind: 'memory' }, cleanup: () => {} }));
  suites('SQLite on a file', () => {
    const dir = tempDir();
    return { config: { kind: 'sqlite', path: join(dir.path, 'petstore.db') }, cleanup: dir.remove };
  });
  describeWithPostgres('PostgreSQL', () => {
    suites('PostgreSQL', async () => {
      const schema = await migratedTestSchema();
      return { config: { kind: 'postgres', url: schema.url, poolSize: 4 }, cleanup: () => schema.drop() };
    });
  });
}
