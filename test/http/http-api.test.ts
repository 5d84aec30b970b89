import { join } from 'node:path';
import { tempDir } from '../support/temp-dir.js';
import { httpApiSuite } from './http-api.suite.js';

httpApiSuite('the memory adapter', () => ({ config: { kind: 'memory' }, cleanup: () => {} }));

httpApiSuite('SQLite on a file', () => {
  const dir = tempDir();
  return { config: { kind: 'sqlite', path: join(dir.path, 'petstore.db') }, cleanup: dir.remove };
});
