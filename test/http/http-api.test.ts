import { forEveryHttpStorage } from '../support/http-storages.js';
import { beyondTheSeedSuite } from './beyond-the-seed.suite.js';
import { httpApiSuite } from './http-api.suite.js';
import { petChangesSuite } from './pet-changes.suite.js';

// Every HTTP suite runs once on each storage adapter.
forEveryHttpStorage((name, database) => {
  httpApiSuite(name, database);
  beyondTheSeedSuite(name, database);
  petChangesSuite(name, database);
});
