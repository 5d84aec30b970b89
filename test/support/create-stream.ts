// A stream of concurrent creates against running servers, keeping account of what was sent,
// what was acknowledged (201) and how every other request ended, for the crash, concurrency
// and shutdown tests of the compiled server.
import { expect } from 'chai';
import { clientFor, type TestResponse } from './http-client.js';

export interface PetSent {
  readonly name: string;
  readonly categoryId: number;
  readonly status: 'available' | 'pending' | 'sold';
}

export interface Pet extends PetSent {
  readonly id: number;
}

export interface CreateStream {
  /** Pets answered 201, as the answers gave them. */
  readonly acknowledged: Pet[];
  /** Every pet a request was started for, by name (names are unique). */
  readonly sent: Map<string, PetSent>;
  /** Requests that got an HTTP answer other than 201: there must be none. */
  readonly unexpected: TestResponse[];
  /** How requests failed without an HTTP answer (ECONNREFUSED, ECONNRESET, …). */
  readonly connectionErrors: string[];
  /** Resolves once every worker has stopped. */
  readonly done: Promise<void>;
  stop(): void;
}

const STATUSES = ['available', 'pending', 'sold'] as const;

/**
 * `workers` loops, each creating pets one after another through the origins in turn (each pet
 * with a unique name), until
 * `total` pets were started, stop() is called, or its server stops answering (a worker stops
 * at its first request without an HTTP answer).
 */
export function startCreateStream(options: {
  origins: readonly string[];
  apiKey: string;
  workers: number;
  total: number;
  prefix: string;
  /** Send every other request with an Idempotency-Key of its own (more write transactions per request). */
  idempotencyKeys?: boolean;
}): CreateStream {
  const apis = options.origins.map((origin) => clientFor(origin, options.apiKey));
  const acknowledged: Pet[] = [];
  const sent = new Map<string, PetSent>();
  const unexpected: TestResponse[] = [];
  const connectionErrors: string[] = [];
  let started = 0;
  let stopped = false;

  const worker = async (w: number): Promise<void> => {
    for (let i = 0; !stopped && started < options.total; i += 1) {
      const n = started++;
      const pet: PetSent = { name: `${options.prefix} ${w}-${i} ✓`, categoryId: n * 7 - 50, status: STATUSES[n % 3]! };
      sent.set(pet.name, pet);
      let res: TestResponse;
      try {
        const headers: Record<string, string> =
          options.idempotencyKeys === true && n % 2 === 0 ? { 'Idempotency-Key': `"${options.prefix}-${n}"` } : {};
        res = await apis[n % apis.length]!.postJson('/v1/pets', pet, headers);
      } catch (err) {
        connectionErrors.push(String((err as { code?: string }).code ?? (err as Error).message));
        return;
      }
      if (res.status === 201) acknowledged.push(res.json as Pet);
      else unexpected.push(res);
    }
  };

  const done = Promise.all(Array.from({ length: options.workers }, (_, w) => worker(w))).then(() => undefined);
  return { acknowledged, sent, unexpected, connectionErrors, done, stop: () => void (stopped = true) };
}

/** Every pet of a server, by following Link rel="next" from the first page. */
export async function listAllPets(origin: string, apiKey: string): Promise<Pet[]> {
  const api = clientFor(origin, apiKey);
  const pets: Pet[] = [];
  let next: string | undefined = '/v1/pets?limit=100';
  while (next !== undefined) {
    const res: TestResponse = await api.get(next);
    expect(res.status, res.text).to.equal(200);
    pets.push(...(res.json as Pet[]));
    next = /<([^>]+)>; rel="next"/.exec(String(res.headers['link'] ?? ''))?.[1];
  }
  return pets;
}

/** Every acknowledged pet is stored unchanged; every stored pet was sent, as it was sent; ids are unique. */
export function expectNothingLostNothingInvented(stored: readonly Pet[], stream: Pick<CreateStream, 'acknowledged' | 'sent'>): void {
  const byId = new Map(stored.map((pet) => [pet.id, pet]));
  expect(byId.size, 'ids are unique').to.equal(stored.length);
  for (const pet of stream.acknowledged) expect(byId.get(pet.id), `acknowledged pet ${pet.id}`).to.deep.equal(pet);
  for (const pet of stored) {
    const sent = stream.sent.get(pet.name);
    expect(sent, `stored pet ${pet.id} was never sent`).not.to.equal(undefined);
    expect({ name: pet.name, categoryId: pet.categoryId, status: pet.status }).to.deep.equal(sent);
  }
}
