import { join } from 'node:path';
import { createTestSchema, describeWithPostgres } from '../support/postgres.js';
import { tempDir } from '../support/temp-dir.js';
import { httpApiSuite } from './http-api.suite.js';

httpApiSuite('the memory adapter', () => ({ config: { kind: 'memory' }, cleanup: () => {} }));

httpApiSuite('SQLite on a file', () => {
  const dir = tempDir();
  return { config: { kind: 'sqlite', path: join(dir.path, 'petstore.db') }, cleanup: dir.remove };
});

describeWithPostgres('PostgreSQL', () => {
  httpApiSuite('PostgreSQL', async () => {
    const schema = await createTestSchema();
    return { config: { kind: 'postgres', url: schema.url, poolSize: 4 }, cleanup: schema.drop };
  });
});
