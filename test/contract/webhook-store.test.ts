// The WebhookStore contract, run against every adapter of the port.
import { MemoryWebhookStore } from '../../src/adapters/memory/memory-webhook-store.js';
import { PostgresWebhookStore } from '../../src/adapters/postgres/postgres-webhook-store.js';
import { SqliteWebhookStore } from '../../src/adapters/sqlite/sqlite-webhook-store.js';
import type { WebhookStore } from '../../src/domain/index.js';
import { forEveryStorage } from '../support/every-storage.js';
import { webhookStoreContract } from './webhook-store.contract.js';

forEveryStorage<WebhookStore>(
  {
    memory: () => new MemoryWebhookStore(),
    sqlite: (db) => new SqliteWebhookStore(db),
    postgres: (pool) => new PostgresWebhookStore(pool),
  },
  (name, open) =>
    webhookStoreContract(name, async () => {
      const { adapter, close } = await open();
      return { store: adapter, close };
    }),
);
