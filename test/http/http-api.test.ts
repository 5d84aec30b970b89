import { join } from 'node:path';
import type { DatabaseConfig } from '../../src/config.js';
import { tempDir } from '../support/temp-dir.js';
import { beyondTheSeedSuite } from './beyond-the-seed.suite.js';
import { httpApiSuite } from './http-api.suite.js';

// Every HTTP suite runs once on each storage adapter.
const databases: Array<[string, () => { config: DatabaseConfig; cleanup: () => void }]> = [
  ['the memory adapter', () => ({ config: { kind: 'memory' }, cleanup: () => {} })],
  [
    'SQLite on a file',
    () => {
      const dir = tempDir();
      return { config: { kind: 'sqlite', path: join(dir.path, 'petstore.db') }, cleanup: dir.remove };
    },
  ],
];

for (const [name, database] of databases) {
  httpApiSuite(name, database);
  beyondTheSeedSuite(name, database);
}
