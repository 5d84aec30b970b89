// Several stateless server instances on one PostgreSQL database, as behind a load balancer:
// two compiled server processes share one fresh schema, take concurrent creates, and one of
// them is killed mid-traffic while the other keeps serving every acknowledged pet.
import { expect } from 'chai';
import { clientFor, type TestResponse } from '../support/http-client.js';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../support/postgres.js';
import { baseUrlOf, logLinesOf, type ServerProcess, spawnServer, stopIfRunning, timeoutForProcesses } from '../support/server-process.js';

const KEY = 'multi-instance-key-0123456789';
const PASSWORD = 'instance-secret-pw';

interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status: string;
}

const byId = (a: Pet, b: Pet) => a.id - b.id;

/** What names a PostgreSQL database in its URL: who connects, to which server, which database, with which options. */
const partsOf = ({ username, password, host, pathname, searchParams }: URL) => ({
  username,
  password,
  host,
  pathname,
  options: searchParams.get('options'),
});

/** The database named by the "listening" log line of a PostgreSQL server, as the parts of its URL. */
function databaseListedBy(instance: ServerProcess): ReturnType<typeof partsOf> {
  const listening = logLinesOf(instance).find((line) => line['msg'] === 'listening');
  const shown = /^postgres (\S+) \(pool of 4\)$/.exec(String(listening?.['database']));
  expect(shown, `the listening line: ${JSON.stringify(listening)}`).not.to.equal(null);
  return partsOf(new URL(shown![1]!));
}

describeWithPostgres('several server instances on one PostgreSQL database', () => {
  let schema: TestSchema;
  let instances: ServerProcess[];
  beforeEach(async () => {
    schema = await createTestSchema();
    instances = [];
  });
  afterEach(async () => {
    for (const instance of instances) await stopIfRunning(instance);
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

  it('gives concurrent creates through both instances unique ids; each lists every pet exactly once', async function () {
    this.timeout(timeoutForProcesses(2));
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

    // The listening line names the database as PETSTORE_TEST_POSTGRES_URL does, without its password.
    for (const instance of instances) {
      expect(databaseListedBy(instance)).to.deep.equal({ ...partsOf(new URL(schema.url)), password: '' });
      expect(instance.output()).not.to.contain(PASSWORD);
    }
  });

  /** Every pet, by following Link rel="next" from a small first page. */
  const walk = async (api: ReturnType<typeof clientFor>): Promise<Pet[]> => {
    const seen: Pet[] = [];
    let next: string | undefined = '/v1/pets?limit=7';
    for (let page = 0; next !== undefined && page < 200; page += 1) {
      const res: TestResponse = await api.get(next);
      expect(res.status, res.text).to.equal(200);
      seen.push(...(res.json as Pet[]));
      next = /<([^>]+)>;\s*rel="next"/.exec(String(res.headers['link'] ?? ''))?.[1];
    }
    return seen;
  };

  it('creates once per Idempotency-Key across instances; a walk through either sees every pet acknowledged before it, once, with no gap', async function () {
    this.timeout(timeoutForProcesses(2));
    const [a, b] = await startTwo();
    // Each key is sent through A and retried at once through B: one pet per key, whichever wins.
    // Plain creates go through both meanwhile, in the same batches as the keyed ones.
    const acknowledged: Pet[] = [];
    const send = async (api: ReturnType<typeof clientFor>, i: number, headers: Record<string, string> = {}) => {
      const res = await api.postJson(
        '/v1/pets',
        { name: `${'Idempotency-Key' in headers ? 'keyed' : 'plain'} ${i}`, categoryId: i },
        headers,
      );
      if (res.status === 201) acknowledged.push(res.json as Pet);
      return res;
    };
    const keyed = (api: ReturnType<typeof clientFor>, i: number) => send(api, i, { 'Idempotency-Key': `"key-${i}"` });
    let createsDone = false;
    const creates = (async () => {
      const answers: TestResponse[] = [];
      for (let wave = 0; wave < 8; wave += 1) {
        const pairs = await Promise.all(
          Array.from({ length: 5 }, (_, j) => {
            const i = wave * 5 + j;
            return Promise.all([keyed(a!, i), keyed(b!, i), send(j % 2 === 0 ? a! : b!, i)]);
          }),
        );
        answers.push(...pairs.flat());
      }
      createsDone = true;
      return answers;
    })();
    // Meanwhile, walk the pages through A and through B, again and again while pets are being
    // created, noting which creates had been answered when each walk started and how many when it ended.
    const walksDuringCreates: Array<{ seen: Pet[]; acknowledgedBefore: Pet[]; answeredAfter: number }> = [];
    for (let i = 0; i < 3 || !createsDone; i += 1) {
      const acknowledgedBefore = [...acknowledged];
      const seen = await walk(i % 2 === 0 ? a! : b!);
      walksDuringCreates.push({ seen, acknowledgedBefore, answeredAfter: acknowledged.length });
    }
    const answers = await creates;
    // The race happened: some walk saw pets while creates were answered, and some key met its
    // twin in progress on the other instance (a 409 can come from nothing else).
    const overlapping = walksDuringCreates.filter((w) => w.acknowledgedBefore.length < w.answeredAfter && w.seen.length > 0);
    expect(overlapping.length, 'walks that saw pets while creates were answered').to.be.at.least(1);
    expect(answers.filter((res) => res.status === 409).length, 'keys that met their twin in progress').to.be.at.least(1);

    for (const res of answers) expect([201, 409], res.text).to.include(res.status);
    const createdByName = new Map<string, number>();
    for (const res of answers.filter((r) => r.status === 201)) {
      const pet = res.json as Pet;
      const known = createdByName.get(pet.name);
      if (known !== undefined) expect(pet.id, `${pet.name} is one pet`).to.equal(known);
      createdByName.set(pet.name, pet.id);
    }
    const everything = (await walk(a!)).sort(byId);
    expect(everything.map((p) => p.name).sort()).to.deep.equal([...new Set(everything.map((p) => p.name))].sort());
    expect(everything).to.have.length(createdByName.size);
    expect(createdByName.size, 'one pet per key and one per plain create').to.equal(80);
    expect(await walk(b!)).to.deep.equal(everything);
    // The paging guarantee, for every walk taken during the creates: it sees every pet
    // acknowledged before it started, repeats none, and skips none below the highest id it saw
    // (ids become visible in id order, even across instances).
    for (const { seen, acknowledgedBefore } of walksDuringCreates) {
      const ids = seen.map((p) => p.id);
      expect(new Set(ids).size).to.equal(ids.length);
      const seenIds = new Set(ids);
      expect(
        acknowledgedBefore.filter((p) => !seenIds.has(p.id)),
        'acknowledged before the walk, not seen',
      ).to.deep.equal([]);
      const highest = Math.max(0, ...ids);
      expect(ids).to.deep.equal(everything.filter((p) => p.id <= highest).map((p) => p.id));
    }
  });

  it('keeps serving every acknowledged pet through one instance when the other is killed mid-traffic', async function () {
    this.timeout(timeoutForProcesses(2));
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
      await Promise.all(
        Array.from({ length: 6 }, (_, j) => {
          const i = wave * 6 + j;
          return j % 2 === 0 ? send(a!, i, true) : send(b!, i, false);
        }),
      );
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
