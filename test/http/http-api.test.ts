import { join } from 'node:path';
import { createTestSchema, describeWithPostgres } from '../support/postgres.js';
import { tempDir } from '../support/temp-dir.js';
import { beyondTheSeedSuite } from './beyond-the-seed.suite.js';
import { httpApiSuite, type TestDatabase } from './http-api.suite.js';
import { petChangesSuite } from './pet-changes.suite.js';

// Every HTTP suite runs once on each storage adapter.
const both = (name: string, database: () => TestDatabase | Promise<TestDatabase>) => {
  httpApiSuite(name, database);
  beyondTheSeedSuite(name, database);
  petChangesSuite(name, database);
};

both('the memory adapter', () => ({ config: { kind: 'memory' }, cleanup: () => {} }));

both('SQLite on a file', () => {
  const dir = tempDir();
  return { config: { kind: 'sqlite', path: join(dir.path, 'petstore.db') }, cleanup: dir.remove };
});

describeWithPostgres('PostgreSQL', () => {
  both('PostgreSQL', async () => {
    const schema = await createTestSchema();
    return { config: { kind: 'postgres', url: schema.url, poolSize: 4 }, cleanup: () => schema.drop() };
  });
});
