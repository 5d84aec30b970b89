import { join } from 'node:path';
import { createTestSchema, describeWithPostgres } from '../support/postgres.js';
import { tempDir } from '../support/temp-dir.js';
import { storeRacesSuite } from './store-races.suite.js';
import { storeSuite } from './store.suite.js';

// The store's suites run once on each storage adapter.
const both = (name: string, database: Parameters<typeof storeSuite>[1]) => {
  storeSuite(name, database);
  storeRacesSuite(name, database);
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
