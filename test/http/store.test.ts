import { forEveryHttpStorage } from '../support/http-storages.js';
import { storeRacesSuite } from './store-races.suite.js';
import { storeSuite } from './store.suite.js';

// The store's suites run once on each storage adapter.
forEveryHttpStorage((name, database) => {
  storeSuite(name, database);
  storeRacesSuite(name, database);
});
