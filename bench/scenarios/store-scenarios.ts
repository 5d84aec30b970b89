// The store's scenarios (interface 1.3): placing orders, and the inventory. The references have
// no store and are "skipped": targets.ts holds place-order against the project's own create, and
// the inventory to a latency ceiling.
import { answerStatus } from './answer-status.js';
import { nextLink } from './deep-page.js';
import type { BenchRequest, Prepared, Scenario, Target } from './scenarios.js';

/**
 * The pets one measurement orders, warm-up included: as many requests as the drawn scenarios
 * send, more than 10 s of placements at this machine's rates.
 */
const ORDERS = 65_536;

/** Creates in flight at once while the bench adds pets to order. */
const CREATING = 16;

/** The share of the requests sent while warming up when the bench does not say (2 s of 10). */
const WARMUP_SHARE = 0.2;

/** Up to `most` ids of the pets available now, in id order: the pages of GET /v1/pets?status=available. */
export async function availablePetIds({ origin, headers }: Target, most: number): Promise<number[]> {
  const ids: number[] = [];
  let url: URL | undefined = new URL('/v1/pets?status=available&limit=100', origin);
  while (url !== undefined && ids.length < most) {
    const answer = await fetch(url, { headers });
    if (answer.status !== 200) throw new Error(`GET ${url.pathname}${url.search} answered ${answer.status}`);
    const pets = (await answer.json()) as readonly { readonly id: number }[];
    ids.push(...pets.map(({ id }) => id));
    const next = nextLink(answer.headers.get('link') ?? undefined);
    url = next === undefined ? undefined : new URL(next, url);
  }
  return ids.slice(0, most);
}

/** Whether the server has POST /v1/orders: an empty body is refused as such (400 or 422), never by a 404 or 405. */
async function ordersServed({ origin, headers }: Target): Promise<boolean> {
  const status = await answerStatus(origin, headers, 'POST', '/v1/orders', { text: '{}', contentType: 'application/json' });
  if (status === 404 || status === 405) return false;
  if (status !== 400 && status !== 422) throw new Error(`POST /v1/orders with an empty body answered ${status}, not 400`);
  return true;
}

/** The ids of `count` pets created available, CREATING at a time, for placements to come. */
export async function createAvailablePets({ origin, headers }: Target, count: number): Promise<number[]> {
  const ids: number[] = [];
  const create = async (): Promise<void> => {
    while (ids.length < count) {
      const answer = await fetch(new URL('/v1/pets', origin), {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Bench order ${ids.length}`, categoryId: 1, status: 'available' }),
      });
      if (answer.status !== 201) throw new Error(`POST /v1/pets answered ${answer.status}`);
      ids.push(((await answer.json()) as { id: number }).id);
    }
  };
  await Promise.all(Array.from({ length: CREATING }, create));
  return ids.slice(0, count);
}

const orderOf = (petId: number): BenchRequest => ({ method: 'POST', path: '/v1/orders', body: JSON.stringify({ petId }) });

/**
 * One order per pet available when the measurement starts, each pet ordered once: the warm-up
 * orders the first share of them, the measurement the rest (wrk sends a list again from its first
 * request, and a pet ordered twice answers 409, which counts as a failure). Each measurement asks
 * anew, so the pets a round before ordered (now pending) are not among them; when fewer than
 * `orders` are available, the bench creates the rest first.
 */
export const placeOrderScenario = (orders: number): Scenario => ({
  id: 'place-order',
  title: 'POST /v1/orders {petId}',
  kind: 'create',
  expectedStatus: 201,
  prepare: async (target): Promise<Prepared> => {
    if (!(await ordersServed(target))) return { skipped: 'the server has no POST /v1/orders' };
    const available = await availablePetIds(target, orders);
    const ids = [...available, ...(await createAvailablePets(target, orders - available.length))];
    const warmup = Math.max(1, Math.floor(ids.length * (target.warmupShare ?? WARMUP_SHARE)));
    return { warmup: ids.slice(0, warmup).map(orderOf), requests: ids.slice(warmup).map(orderOf) };
  },
});

export const placeOrder = placeOrderScenario(ORDERS);

/**
 * GET /v1/store/inventory: the count of pets in each status, exact at one moment, whatever the
 * number of pets. On one connection, so that its median is the time to answer one request (its
 * target), not the wait behind 31 others that any server has at 32 connections.
 */
export const inventory: Scenario = {
  id: 'inventory',
  title: 'GET /v1/store/inventory (1 connection)',
  kind: 'read',
  expectedStatus: 200,
  connections: 1,
  prepare: async ({ origin, headers }): Promise<Prepared> => {
    const status = await answerStatus(origin, headers, 'GET', '/v1/store/inventory');
    if (status === 404 || status === 405) return { skipped: 'the server has no GET /v1/store/inventory' };
    if (status !== 200) throw new Error(`GET /v1/store/inventory answered ${status}, not 200`);
    return { requests: [{ method: 'GET', path: '/v1/store/inventory' }] };
  },
};
