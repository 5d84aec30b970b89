// Several stateless server instances on one PostgreSQL database, as behind a load balancer:
// two compiled server processes share one fresh schema, take concurrent creates, and one of
// them is killed mid-traffic while the other keeps serving every acknowledged pet.
import { expect } from 'chai';
import { clientFor, type TestResponse } from '../support/http-client.js';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../support/postgres.js';
import { baseUrlOf, type ServerProcess, spawnServer } from '../support/server-process.js';

const KEY = 'multi-instance-key-0123456789';
const PASSWORD = 'instance-secret-pw';

interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status: string;
}

const byId = (a: Pet, b: Pet) => a.id - b.id;

describeWithPostgres('several server instances on one PostgreSQL database', () => {
  let schema: TestSchema;
  let instances: ServerProcess[];
  beforeEach(async () => {
    schema = await createTestSchema();
    instances = [];
  });
  afterEach(async () => {
    for (const instance of instances) {
      if (instance.child.exitCode === null && instance.child.signalCode === null) {
        instance.child.kill('SIGKILL');
        await instance.exited;
      }
    }
    await schema.drop();
  });

  /** Two instances started at the same moment on the new schema: both migrate it at start. */
  async function startTwo() {
    const url = new URL(schema.url);
    url.password = PASSWORD; // the test server trusts local connections: any password does
    const env = { PETSTORE_DB: url.toString(), PETSTORE_API_KEYS: KEY, PETSTORE_PG_POOL_SIZE: '4' };
    instances = [spawnServer(env), spawnServer(env)];
    const origins = await Promise.all(instances.map(async (instance) => new URL(await baseUrlOf(instance)).origin));
    return origins.map((origin) => clientFor(origin, KEY));
  }

  const listAll = async (api: ReturnType<typeof clientFor>): Promise<Pet[]> => {
    const res = await api.get('/v1/pets?limit=100');
    expect(res.status, res.text).to.equal(200);
    return res.json as Pet[];
  };

  it('gives concurrent creates through both instances unique ids; each lists every pet exactly once', async () => {
    const [a, b] = await startTwo();
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? a! : b!).postJson('/v1/pets', { name: `pet ${i}`, categoryId: i })),
    );
    for (const res of responses) expect(res.status, res.text).to.equal(201);
    const created = responses.map((res) => res.json as Pet);
    expect(new Set(created.map((p) => p.id)).size).to.equal(60);

    const expected = [...created].sort(byId);
    for (const api of [a!, b!]) expect(await listAll(api)).to.deep.equal(expected);
    // A pet created through one instance is found through the other.
    for (const pet of created.slice(0, 4)) expect((await b!.get(`/v1/pets/${pet.id}`)).json).to.deep.equal(pet);

    // The listening line names the database, without its password.
    for (const instance of instances) {
      expect(instance.output()).to.match(/"database":"postgres postgres:\/\/postgres@127\.0\.0\.1:\d+\/test\?options=[^"]+ \(pool of 4\)"/);
      expect(instance.output()).not.to.contain(PASSWORD);
    }
  });

  it('keeps serving every acknowledged pet through one instance when the other is killed mid-traffic', async () => {
    const [a, b] = await startTwo();
    const acknowledged: Pet[] = [];
    let ackedByA = 0;
    const send = async (api: ReturnType<typeof clientFor>, i: number, viaA: boolean): Promise<void> => {
      let res: TestResponse;
      try {
        res = await api.postJson('/v1/pets', { name: `pet ${i}`, categoryId: 1 });
      } catch {
        return; // the killed instance's connection was reset or refused: not acknowledged
      }
      if (res.status !== 201) return;
      acknowledged.push(res.json as Pet);
      if (viaA) {
        ackedByA += 1;
        // SIGKILL: no graceful stop, requests in flight on A are cut off.
        if (ackedByA === 10) instances[0]!.child.kill('SIGKILL');
      }
    };
    // 90 creates in waves of 6 (3 per instance) at once: at most 90 pets, within one page of 100.
    for (let wave = 0; wave < 15; wave += 1) {
      await Promise.all(Array.from({ length: 6 }, (_, j) => {
        const i = wave * 6 + j;
        return j % 2 === 0 ? send(a!, i, true) : send(b!, i, false);
      }));
    }
    await instances[0]!.exited;
    expect(instances[0]!.child.signalCode).to.equal('SIGKILL');
    expect(ackedByA).to.be.at.least(10);
    expect(acknowledged.length).to.be.at.least(55); // B's 45 and A's first 10
    expect(new Set(acknowledged.map((p) => p.id)).size, 'acknowledged ids are unique').to.equal(acknowledged.length);

    const listed = await listAll(b!);
    expect(new Set(listed.map((p) => p.id)).size, 'no pet is listed twice').to.equal(listed.length);
    const listedById = new Map(listed.map((p) => [p.id, p]));
    for (const pet of acknowledged) expect(listedById.get(pet.id), `pet ${pet.id}`).to.deep.equal(pet);
    // Whatever else is listed was in flight on A when it died: committed, never acknowledged.
    expect(listed.length - acknowledged.length).to.be.within(0, 90 - acknowledged.length);
    expect((await b!.postJson('/v1/pets', { name: 'after the kill', categoryId: 1 })).status).to.equal(201);
  });
});
