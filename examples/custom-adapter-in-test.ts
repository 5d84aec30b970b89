// A test of your own that replaces a port with a custom adapter: here a PetRepository that
// fails like a database that went away, and a Clock held still. Run: node --import tsx examples/custom-adapter-in-test.ts
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  createPetStore,
  MemoryIdempotencyStore,
  MemoryPetRepository,
  type PetRepository,
  PetStoreClient,
  PetStoreError,
  type PetStore,
  type RunningHttpServer,
  startHttpServer,
  StorageUnavailableError,
} from 'petstore-hexagon';

const API_KEY = 'example-test-key-0123456789';

/**
 * The memory repository, but creating fails while `down` is true, as a lost database would.
 * It stores a pet created with an Idempotency-Key (the client sends one) together with the
 * key's record, so it is given the idempotency store whose records it completes.
 */
class UnreliablePetRepository implements PetRepository {
  down = true;
  private readonly pets: MemoryPetRepository;
  constructor(idempotencyStore: MemoryIdempotencyStore) {
    this.pets = new MemoryPetRepository(idempotencyStore);
  }
  private failWhileDown(): void {
    if (this.down) throw new StorageUnavailableError('the database is away');
  }
  create: PetRepository['create'] = async (draft) => {
    this.failWhileDown();
    return this.pets.create(draft);
  };
  createCompleting: PetRepository['createCompleting'] = async (draft, hold) => {
    this.failWhileDown();
    return this.pets.createCompleting(draft, hold);
  };
  findById: PetRepository['findById'] = (id) => this.pets.findById(id);
  list: PetRepository['list'] = (query) => this.pets.list(query);
  findVersioned: PetRepository['findVersioned'] = (id) => this.pets.findVersioned(id);
  update: PetRepository['update'] = (id, version, draft) => this.pets.update(id, version, draft);
  remove: PetRepository['remove'] = (id, version) => this.pets.remove(id, version);
}

// The pets and the idempotency records are replaced together: they live in one storage.
const idempotencyStore = new MemoryIdempotencyStore();
const repository = new UnreliablePetRepository(idempotencyStore);
let petStore: PetStore;
let server: RunningHttpServer;
let client: PetStoreClient;

before(async () => {
  petStore = await createPetStore({
    apiKeys: [API_KEY],
    adapters: { petRepository: repository, idempotencyStore, clock: { now: () => new Date('2030-01-01T00:00:00Z') } },
  });
  server = await startHttpServer(petStore.app.callback(), { host: '127.0.0.1', port: 0 });
  client = new PetStoreClient({ baseUrl: `${server.url}/v1`, apiKey: API_KEY, retry: { attempts: 1 } });
});

after(async () => {
  await server.close();
  await petStore.close();
});

test('a storage outage is answered 503 service_unavailable, with a request id to report', async () => {
  await assert.rejects(client.createPet({ name: 'Rex', categoryId: 1 }), (err: unknown) => {
    assert.ok(err instanceof PetStoreError);
    assert.equal(err.status, 503);
    assert.equal(err.code, 'service_unavailable');
    assert.equal(err.retryAfterSeconds, 1);
    assert.match(err.requestId ?? '', /./);
    return true;
  });
});

test('once the storage is back, the pet is created', async () => {
  repository.down = false;
  const pet = await client.createPet({ name: 'Rex', categoryId: 1 });
  assert.deepEqual(pet, { id: 1, name: 'Rex', categoryId: 1, status: 'available' });
});
