// The typed client's categories (interface 1.3) against the real service over HTTP on SQLite,
// every answer checked against docs/openapi.yaml.
import { expect } from 'chai';
import { type Category, PetStoreClient, PetStoreError } from '../../src/client/index.js';
import { checkedFetch } from '../support/checked-fetch.js';
import { startTestServer, TEST_API_KEY, type TestServer } from '../support/test-server.js';

/** The service's refusal of `call`: its status and code. */
async function refusal(call: Promise<unknown>): Promise<[number, string]> {
  const fault = await call.then(
    () => expect.fail('the call succeeded'),
    (err: unknown) => err,
  );
  if (!(fault instanceof PetStoreError)) throw fault;
  return [fault.status ?? 0, fault.code];
}

describe('the typed client, categories', () => {
  let server: TestServer;
  let client: PetStoreClient;
  beforeEach(async () => {
    server = await startTestServer({ kind: 'sqlite', path: ':memory:' });
    client = new PetStoreClient({ baseUrl: `${server.url}/v1`, apiKey: TEST_API_KEY, fetch: checkedFetch, retry: { attempts: 1 } });
  });
  afterEach(() => server.close());

  it('creates, gets, renames with ifMatch and deletes a category; refuses a taken name and a category in use', async () => {
    const { category: dogs, etag } = await client.categories.create('Dogs');
    expect([dogs.name, etag]).to.deep.equal(['Dogs', `"${dogs.id}-1"`]);
    expect(await refusal(client.categories.create('dogs'))).to.deep.equal([409, 'category_name_taken']);
    expect(await client.categories.get(dogs.id)).to.deep.equal({ category: dogs, etag });
    const renamed = await client.categories.rename(dogs.id, 'Hounds', { ifMatch: etag });
    expect(renamed).to.deep.equal({ category: { id: dogs.id, name: 'Hounds' }, etag: `"${dogs.id}-2"` });
    expect(await refusal(client.categories.rename(dogs.id, 'Late', { ifMatch: etag }))).to.deep.equal([412, 'precondition_failed']);
    const rex = await client.createPet({ name: 'Rex', categoryId: dogs.id });
    expect(await refusal(client.categories.delete(dogs.id))).to.deep.equal([409, 'category_in_use']);
    await client.deletePet(rex.id);
    await client.categories.delete(dogs.id, { ifMatch: renamed.etag });
    expect(await refusal(client.categories.get(dogs.id))).to.deep.equal([404, 'category_not_found']);
  });

  it('lists categories page by page, and every one of them; lists the pets of a category', async () => {
    const created: Category[] = [];
    for (const name of ['Dogs', 'Cats', 'Birds']) created.push((await client.categories.create(name)).category);
    const first = await client.categories.list({ limit: 2 });
    expect(first.categories).to.deep.equal(created.slice(0, 2));
    const second = await client.categories.nextPage(first);
    expect([second?.categories, second?.next]).to.deep.equal([created.slice(2), undefined]);
    const all: Category[] = [];
    for await (const category of client.categories.all({ limit: 1 })) all.push(category);
    expect(all).to.deep.equal(created);
    const [dogs, cats] = created as [Category, Category];
    await client.createPet({ name: 'Rex', categoryId: dogs.id });
    const tom = await client.createPet({ name: 'Tom', categoryId: cats.id, status: 'sold' });
    expect((await client.listPets({ categoryId: cats.id })).pets).to.deep.equal([tom]);
    expect((await client.listPets({ categoryId: cats.id, status: 'available' })).pets).to.deep.equal([]);
  });
});
