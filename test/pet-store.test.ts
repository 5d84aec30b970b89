// createPetStore: the whole service from options, with the database it names, the keys it is
// given and stored, and any port replaced by the caller's adapter.
import { join } from 'node:path';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import { startHttpServer } from '../src/adapters/http/http-server.js';
import { MemoryIdempotencyStore } from '../src/adapters/memory/memory-idempotency-store.js';
import { MemoryPetRepository } from '../src/adapters/memory/memory-pet-repository.js';
import { type ApiKeyLabel, type Limit, NewPet, type PetRepository } from '../src/domain/index.js';
import { createPetStore, type PetStore, type PetStoreOptions } from '../src/composition/pet-store.js';
import { clientFor } from './support/http-client.js';
import { createTestSchema, describeWithPostgres } from './support/postgres.js';
import { tempDir } from './support/temp-dir.js';
import { TEST_API_KEY } from './support/test-server.js';

const decoded = <A>(result: E.Either<unknown, A>): A => {
  if (E.isLeft(result)) throw new Error('expected a valid value');
  return result.right;
};

/** Serves the store's app for the time of `body`. */
async function served(petStore: PetStore, body: (url: string) => Promise<void>): Promise<void> {
  const server = await startHttpServer(petStore.app.callback(), { host: '127.0.0.1', port: 0 });
  try {
    await body(server.url);
  } finally {
    await server.close();
  }
}

const PAIRED_ADAPTERS = /^createPetStore: adapters\.petRepository and adapters\.idempotencyStore must be given together/;

describe('createPetStore', () => {
  it('builds the service on the memory adapters by default, its use cases callable without HTTP', async () => {
    const petStore = await createPetStore();
    try {
      const created = await petStore.useCases.createPet(decoded(NewPet.decode({ name: 'Rex', categoryId: 1 })))();
      expect(created).to.deep.equal(E.right({ id: 1, name: 'Rex', categoryId: 1, status: 'available' }));
      const page = await petStore.useCases.listPets({ limit: 10 as Limit })();
      expect(page).to.deep.equal(E.right({ pets: [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }], hasMore: false }));
    } finally {
      await petStore.close();
    }
  });

  it('accepts the keys it is given and the keys stored through it, and none once revoked', async () => {
    const petStore = await createPetStore({ apiKeys: [TEST_API_KEY] });
    try {
      const { key, record } = await petStore.apiKeys.create('stored' as ApiKeyLabel);
      await served(petStore, async (url) => {
        expect((await clientFor(url, TEST_API_KEY).get('/v1/pets')).status).to.equal(200);
        expect((await clientFor(url, key).get('/v1/pets')).status).to.equal(200);
        expect(O.isSome(await petStore.apiKeys.revoke(record.id))).to.equal(true);
        expect((await clientFor(url, key).get('/v1/pets')).status).to.equal(401);
      });
    } finally {
      await petStore.close();
    }
  });

  it('keeps pets and stored keys in the SQLite file it is given, across instances', async () => {
    const dir = tempDir();
    const db = join(dir.path, 'nested', 'petstore.db');
    try {
      const first = await createPetStore({ db });
      await first.useCases.createPet(decoded(NewPet.decode({ name: 'Kept', categoryId: 1 })))();
      await first.apiKeys.create('kept' as ApiKeyLabel);
      await first.close();
      const second = await createPetStore({ db: { kind: 'sqlite', path: db } });
      try {
        expect(
          E.map((p: { pets: readonly unknown[] }) => p.pets.length)(await second.useCases.listPets({ limit: 10 as Limit })()),
        ).to.deep.equal(E.right(1));
        expect((await second.apiKeys.list()).map((r) => r.label)).to.deep.equal(['kept']);
      } finally {
        await second.close();
      }
    } finally {
      dir.remove();
    }
  });

  it('uses the adapters and HTTP options it is given', async () => {
    // The pets and the idempotency records are replaced together: createCompleting completes the store's records.
    const idempotencyStore = new MemoryIdempotencyStore();
    const pets = new MemoryPetRepository(idempotencyStore);
    let created = 0;
    const counting: PetRepository = {
      create: (draft) => ((created += 1), pets.create(draft)),
      createCompleting: (draft, hold) => ((created += 1), pets.createCompleting(draft, hold)),
      findById: (id) => pets.findById(id),
      list: (query) => pets.list(query),
      findVersioned: (id) => pets.findVersioned(id),
      update: (id, version, draft) => pets.update(id, version, draft),
      remove: (id, version) => pets.remove(id, version),
    };
    const petStore = await createPetStore({
      apiKeys: [TEST_API_KEY],
      adapters: { petRepository: counting, idempotencyStore, clock: { now: () => new Date('2031-01-01T00:00:00Z') } },
      http: { bodyLimitBytes: 64 },
    });
    try {
      await served(petStore, async (url) => {
        const api = clientFor(url, TEST_API_KEY);
        expect((await api.postJson('/v1/pets', { name: 'Small', categoryId: 1 })).status).to.equal(201);
        expect((await api.postJson('/v1/pets', { name: 'x'.repeat(80), categoryId: 1 })).json.code).to.equal('payload_too_large');
        // The caller's pets leave the store out (an order could not change its pet in their transaction):
        // its routes are not served, as on a 1.2 service (fetch: the document has them, with no 404).
        const authorization = `Bearer ${TEST_API_KEY}`;
        expect((await fetch(`${url}/v1/store/inventory`, { headers: { authorization } })).status).to.equal(404);
        expect((await fetch(`${url}/v1/orders/1`, { headers: { authorization } })).status).to.equal(404);
      });
      expect(created).to.equal(1);
      expect((await petStore.apiKeys.create('' as ApiKeyLabel)).record.createdAt).to.deep.equal(new Date('2031-01-01T00:00:00Z'));
    } finally {
      await petStore.close();
    }
  });

  it('marks the service as stopping on close: /readyz answers 503', async () => {
    const petStore = await createPetStore();
    await served(petStore, async (url) => {
      expect((await fetch(`${url}/readyz`)).status).to.equal(200);
      await petStore.close();
      expect((await fetch(`${url}/readyz`)).status).to.equal(503);
    });
  });

  it('closes once: a second close resolves when the first is done, and one after it resolves too', async () => {
    const petStore = await createPetStore();
    let firstDone = false;
    const first = petStore.close().then(() => {
      firstDone = true;
    });
    await petStore.close();
    expect(firstDone).to.equal(true);
    await first;
    await petStore.close();
  });

  it('refuses invalid options with a TypeError naming the option, never the key', async () => {
    for (const [options, message] of [
      [{ db: 'mysql://db/pets' }, /^createPetStore: db must be/],
      [{ db: '  ' }, /^createPetStore: db must be/],
      [{ db: 'postgres://h/db', postgresPoolSize: 0 }, /^createPetStore: postgresPoolSize must be an integer from 1 to 1000$/],
      [{ apiKeys: ['good-key-0123456789', 'short-secret'] }, /^createPetStore: apiKeys\[1\] must be at least 16 characters long$/],
      // Given alone, either would leave a pet created with an Idempotency-Key nowhere to complete its record.
      [{ adapters: { petRepository: new MemoryPetRepository() } }, PAIRED_ADAPTERS],
      [{ db: ':memory:', adapters: { idempotencyStore: new MemoryIdempotencyStore() } }, PAIRED_ADAPTERS],
      // A memory repository completes only the records of the store it was made with.
      [
        { adapters: { petRepository: new MemoryPetRepository(), idempotencyStore: new MemoryIdempotencyStore() } },
        /^createPetStore: adapters\.petRepository must be made with adapters\.idempotencyStore: new MemoryPetRepository\(idempotencyStore\)$/,
      ],
      [
        {
          adapters: {
            petRepository: new MemoryPetRepository(new MemoryIdempotencyStore()),
            idempotencyStore: new MemoryIdempotencyStore(),
          },
        },
        /^createPetStore: adapters\.petRepository must be made with adapters\.idempotencyStore/,
      ],
    ] as const) {
      const err = await createPetStore(options).catch((e: unknown) => e);
      expect(err, JSON.stringify(options)).to.be.instanceOf(TypeError);
      expect((err as Error).message).to.match(message);
      expect((err as Error).message).not.to.contain('short-secret');
    }
  });
});

describe('createPetStore, its options checked as their environment variables are', () => {
  it('refuses each invalid option with a TypeError naming it, and never repeats a URL', async () => {
    for (const [options, message] of [
      // http: a body limit that is not a positive integer would turn the limit off or refuse every body.
      [{ http: { bodyLimitBytes: Number.NaN } }, /^createPetStore: http\.bodyLimitBytes must be an integer from 1 to 67108864$/],
      [{ http: { bodyLimitBytes: 0 } }, /^createPetStore: http\.bodyLimitBytes must be an integer from 1 to 67108864$/],
      [{ http: { bodyLimitBytes: -1 } }, /^createPetStore: http\.bodyLimitBytes must be an integer from 1 to 67108864$/],
      [
        { http: { rateLimit: { requests: 0, windowSeconds: 60 } } },
        /^createPetStore: http\.rateLimit\.requests must be an integer from 1 to 9999999$/,
      ],
      [{ http: { rateLimit: { requests: -5, windowSeconds: 60 } } }, /^createPetStore: http\.rateLimit\.requests must be an integer/],
      [
        { http: { rateLimit: { requests: 10, windowSeconds: 0 } } },
        /^createPetStore: http\.rateLimit\.windowSeconds must be an integer from 1 to 999999$/,
      ],
      [
        { http: { rateLimit: { requests: 10, windowSeconds: Number.NaN } } },
        /^createPetStore: http\.rateLimit\.windowSeconds must be an integer/,
      ],
      [
        { http: { authFailureLimit: { requests: 1.5, windowSeconds: 60 } } },
        /^createPetStore: http\.authFailureLimit\.requests must be an integer/,
      ],
      [
        { http: { corsOrigins: ['https://app.example', 'not a url'] } },
        /^createPetStore: http\.corsOrigins\[1\] must be an origin such as/,
      ],
      [{ http: { metrics: 'bogus' } }, /^createPetStore: http\.metrics must be one of open, key, off$/],
      // events
      [{ events: { source: '' } }, /^createPetStore: events\.source must be a URI reference/],
      [{ events: { retentionHours: -1 } }, /^createPetStore: events\.retentionHours must be an integer from 1 to 8760$/],
      [{ events: { retentionHours: Number.NaN } }, /^createPetStore: events\.retentionHours must be an integer from 1 to 8760$/],
      [{ events: { webhookConcurrency: 0 } }, /^createPetStore: events\.webhookConcurrency must be an integer from 1 to 100$/],
      [{ events: { nats: { url: 'http://user:s3cret@x', stream: 'PETSTORE' } } }, /^createPetStore: events\.nats\.url must be a nats:\/\//],
      [{ events: { nats: { url: 'nats://x:4222', stream: 'bad.name' } } }, /^createPetStore: events\.nats\.stream must be/],
      // db as a DatabaseConfig
      [{ db: { kind: 'mysql' } }, /^createPetStore: db must be .* a DatabaseConfig of kind memory, sqlite or postgres$/],
      [
        { db: { kind: 'postgres', url: 'postgres://h/db', poolSize: 0 } },
        /^createPetStore: db\.poolSize must be an integer from 1 to 1000$/,
      ],
      [{ db: { kind: 'postgres', url: 'mysql://user:s3cret@h/db', poolSize: 2 } }, /^createPetStore: db\.url must be a postgres:\/\//],
      [{ db: { kind: 'sqlite', path: ' ' } }, /^createPetStore: db\.path must be the path of a SQLite file$/],
      // A misspelt option, at any depth, is refused rather than left out unheard.
      [{ dbb: 'pets.db' }, /^createPetStore: dbb is not a known field$/],
      [{ http: { ratelimit: { requests: 1, windowSeconds: 1 } } }, /^createPetStore: http\.ratelimit is not a known field$/],
      [
        { http: { rateLimit: { requests: 1, window: 1 } } },
        /^createPetStore: http\.rateLimit\.windowSeconds is required; http\.rateLimit\.window is not/,
      ],
      [
        { events: { nats: { url: 'nats://x:4222', stream: 'PETS', user: 'me' } } },
        /^createPetStore: events\.nats\.user is not a known field$/,
      ],
      [{ db: { kind: 'sqlite', file: 'pets.db', path: 'pets.db' } }, /^createPetStore: db\.file is not a known field$/],
      [{ adapters: { petRepositry: {} } }, /^createPetStore: adapters\.petRepositry is not a known field$/],
      // Objects of the caller's are checked for what the service calls on them.
      [{ logger: console }, /^createPetStore: logger must be a pino logger$/],
      [
        { redis: { host: '127.0.0.1', port: 6379 } },
        /^createPetStore: redis must be a redis:\/\/ or rediss:\/\/ URL, or an ioredis client$/,
      ],
      [{ adapters: { clock: {} } }, /^createPetStore: adapters\.clock must be a Clock \(now\)$/],
      [
        { adapters: { credentialVerifier: { verify: true } } },
        /^createPetStore: adapters\.credentialVerifier must be an CredentialVerifier/,
      ],
      [{ adapters: { readiness: {} } }, /^createPetStore: adapters\.readiness must be a ReadinessCheck/],
      [
        { adapters: { petRepository: { create: () => undefined }, idempotencyStore: new MemoryIdempotencyStore() } },
        /^createPetStore: adapters\.petRepository must be a PetRepository \(create, createCompleting/,
      ],
      // Every invalid option at once.
      [
        { http: { metrics: 'bogus' }, events: { retentionHours: 0 } },
        /^createPetStore: http\.metrics must be .*; events\.retentionHours must be/,
      ],
    ] as const) {
      const err = await createPetStore(options as PetStoreOptions).catch((e: unknown) => e);
      expect(err, JSON.stringify(options)).to.be.instanceOf(TypeError);
      expect((err as Error).message, JSON.stringify(options)).to.match(message);
      expect((err as Error).message).not.to.contain('s3cret');
    }
  });

  it('refuses options that are not an object with a TypeError saying so', async () => {
    for (const options of [null, 'pets.db', 5, []]) {
      const err = await createPetStore(options as unknown as PetStoreOptions).catch((e: unknown) => e);
      expect(err, String(options)).to.be.instanceOf(TypeError);
      expect((err as Error).message).to.equal('createPetStore: options must be an object');
    }
  });

  it('takes valid options as they are given, an option that is undefined as one left out', async () => {
    // Undefined options, as a consumer compiled without exactOptionalPropertyTypes may write them.
    const options = {
      redis: undefined,
      logger: undefined,
      apiKeys: [TEST_API_KEY],
      http: {
        corsOrigins: ['https://app.example'],
        rateLimit: { requests: 1, windowSeconds: 60 },
        metrics: 'off',
        authFailureLimit: undefined,
      },
      events: { source: 'https://pets.example/store', retentionHours: 1, nats: undefined },
    } as const;
    const petStore = await createPetStore(options as unknown as PetStoreOptions);
    try {
      await served(petStore, async (url) => {
        const api = clientFor(url, TEST_API_KEY);
        expect((await api.get('/v1/pets', { Origin: 'https://app.example' })).headers['access-control-allow-origin']).to.equal(
          'https://app.example',
        );
        expect((await api.get('/v1/pets')).status).to.equal(429);
        expect((await fetch(`${url}/metrics`)).status).to.equal(404);
      });
    } finally {
      await petStore.close();
    }
  });
});

describeWithPostgres('createPetStore on PostgreSQL', () => {
  it('opens and migrates the database of a postgres:// URL, and closes its pool', async () => {
    const schema = await createTestSchema();
    try {
      const petStore = await createPetStore({ db: schema.url, postgresPoolSize: 2 });
      await petStore.apiKeys.create('pg' as ApiKeyLabel);
      expect((await petStore.apiKeys.list()).map((r) => r.label)).to.deep.equal(['pg']);
      await petStore.close();
    } finally {
      await schema.drop();
    }
  });
});
