// Mocha's root hooks, for every test file (.mocharc.json requires this file).
import { dropMigratedTestSchemas } from './migrated-test-schemas.js';

export const mochaHooks = {
  /** The pooled PostgreSQL schemas go when the process's tests are done. */
  afterAll: dropMigratedTestSchemas,
};
