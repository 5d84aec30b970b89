// The categories over real HTTP (interface 1.3), on memory, SQLite and PostgreSQL, every answer
// checked against the document; and PETSTORE_CATEGORIES=registered on the same storage.
import { expect } from 'chai';
import { clientFor } from '../support/http-client.js';
import { expectError } from '../support/expect-error.js';
import { describeWithPostgres, createTestSchema } from '../support/postgres.js';
import { startTestServer, TEST_API_KEY, type TestServer } from '../support/test-server.js';
import type { DatabaseConfig } from '../../src/config/database-config.js';

/** PETSTORE_CATEGORIES=registered, through `api`: a pet's categoryId must name a category, on create (with or without an Idempotency-Key) and on patch; nothing is stored otherwise. */
async function refusesUnknownCategories(api: ReturnType<typeof clientFor>): Promise<void> {
  const { id: dogs } = (await api.postJson('/v1/categories', { name: 'Dogs' })).json as { id: number };
  const missing = dogs + 50;
  expectError(await api.postJson('/v1/pets', { name: 'Rex', categoryId: missing }), 422, 'unknown_category');
  const once = await api.send('/v1/pets', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'k-1' },
    body: JSON.stringify({ name: 'Rex', categoryId: missing }),
  });
  expectError(once, 422, 'unknown_category');
  expect((await api.get('/v1/pets')).json).to.deep.equal([]);
  const created = await api.postJson('/v1/pets', { name: 'Rex', categoryId: dogs });
  expect(created.status).to.equal(201);
  const { id } = created.json as { id: number };
  const moved = await api.send(`/v1/pets/${id}`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/merge-patch+json' },
    body: JSON.stringify({ categoryId: missing }),
  });
  expectError(moved, 422, 'unknown_category');
  expect((await api.get(`/v1/pets/${id}`)).json).to.deep.equal({ id, name: 'Rex', categoryId: dogs, status: 'available' });
  // The key was not used up: once the category exists, the same request creates the pet.
  const { id: cats } = (await api.postJson('/v1/categories', { name: 'Cats' })).json as { id: number };
  const retried = await api.send('/v1/pets', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'k-1' },
    body: JSON.stringify({ name: 'Rex', categoryId: cats }),
  });
  expect(retried.status).to.equal(201);
}

function categoriesOver(name: string, database: () => Promise<{ config: DatabaseConfig; drop: () => Promise<void> }>): void {
  describe(`categories over HTTP: ${name}`, () => {
    let server: TestServer;
    let drop: () => Promise<void>;
    let api: ReturnType<typeof clientFor>;
    let config: DatabaseConfig;
    beforeEach(async () => {
      const made = await database();
      ({ drop, config } = made);
      server = await startTestServer(made.config);
      api = clientFor(server.url, TEST_API_KEY);
    });
    afterEach(async () => {
      await server.close();
      await drop();
    });
    const patch = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      api.send(path, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/merge-patch+json', ...headers },
        body: JSON.stringify(body),
      });

    it('with PETSTORE_CATEGORIES=registered, refuses with 422 unknown_category a pet created or moved into a category that does not exist', async () => {
      const registered = await startTestServer(config, { config: { categories: 'registered' } });
      try {
        await refusesUnknownCategories(clientFor(registered.url, TEST_API_KEY));
      } finally {
        await registered.close();
      }
    });

    it('creates, reads, renames and deletes a category, with ETags and conditions', async () => {
      const created = await api.postJson('/v1/categories', { name: 'Dogs' });
      expect(created.status).to.equal(201);
      const { id } = created.json as { id: number };
      expect(created.json).to.deep.equal({ id, name: 'Dogs' });
      expect(created.headers['location']).to.equal(`/v1/categories/${id}`);
      expect(created.headers['etag']).to.equal(`"${id}-1"`);
      expectError(await api.postJson('/v1/categories', { name: 'DOGS' }), 409, 'category_name_taken');
      expectError(await api.postJson('/v1/categories', { name: ' ' }), 400, 'validation_failed');
      expect((await api.get(`/v1/categories/${id}`)).json).to.deep.equal({ id, name: 'Dogs' });
      expectError(await api.get(`/v1/categories/${id + 1}`), 404, 'category_not_found');
      expectError(await api.get('/v1/categories/x'), 400, 'invalid_parameter');
      expectError(await patch(`/v1/categories/${id}`, { name: 'Hounds' }, { 'If-Match': `"${id}-7"` }), 412, 'precondition_failed');
      const renamed = await patch(`/v1/categories/${id}`, { name: 'Hounds' }, { 'If-Match': `"${id}-1"` });
      expect(renamed.status).to.equal(200);
      expect(renamed.json).to.deep.equal({ id, name: 'Hounds' });
      expect(renamed.headers['etag']).to.equal(`"${id}-2"`);
      const pet = await api.postJson('/v1/pets', { name: 'Rex', categoryId: id });
      expectError(await api.send(`/v1/categories/${id}`, { method: 'DELETE' }), 409, 'category_in_use');
      expect((await api.send(`/v1/pets/${(pet.json as { id: number }).id}`, { method: 'DELETE' })).status).to.equal(204);
      expect((await api.send(`/v1/categories/${id}`, { method: 'DELETE' })).status).to.equal(204);
      expectError(await api.get(`/v1/categories/${id}`), 404, 'category_not_found');
    });

    it('pages categories and the pets of a category, the cursor keeping its filter', async () => {
      for (const text of ['a', 'b', 'c']) await api.postJson('/v1/categories', { name: text });
      const first = await api.get('/v1/categories?limit=2');
      expect((first.json as unknown[]).length).to.equal(2);
      const next = /<([^>]+)>; rel="next"/.exec(String(first.headers['link'] ?? ''))![1]!;
      expect((await api.get(next)).json).to.have.length(1);
      for (let i = 0; i < 5; i += 1)
        await api.postJson('/v1/pets', { name: `p${i}`, categoryId: i % 2, status: i < 2 ? 'sold' : 'available' });
      const page = await api.get('/v1/pets?limit=1&categoryId=1');
      expect((page.json as { name: string }[]).map((p) => p.name)).to.deep.equal(['p1']);
      const link = /<([^>]+)>; rel="next"/.exec(String(page.headers['link'] ?? ''))![1]!;
      expect(link).to.contain('categoryId=1');
      expect(((await api.get(link)).json as { name: string }[]).map((p) => p.name)).to.deep.equal(['p3']);
      const cursor = new URL(link, 'http://x').searchParams.get('cursor')!;
      expectError(await api.get(`/v1/pets?categoryId=0&cursor=${cursor}`), 400, 'invalid_parameter');
      expect(((await api.get('/v1/pets?categoryId=0&status=sold')).json as { name: string }[]).map((p) => p.name)).to.deep.equal(['p0']);
    });
  });
}

categoriesOver('memory', () => Promise.resolve({ config: { kind: 'memory' }, drop: () => Promise.resolve() }));
categoriesOver('SQLite', () => Promise.resolve({ config: { kind: 'sqlite', path: ':memory:' }, drop: () => Promise.resolve() }));
describeWithPostgres('PostgreSQL', () =>
  categoriesOver('PostgreSQL', async () => {
    const schema = await createTestSchema();
    return { config: { kind: 'postgres', url: schema.url, poolSize: 4 }, drop: () => schema.drop() };
  }),
);
