// The eight scenarios of the bench, each the same sequence of requests for every server.
import { seededStatus } from '../databases/seed.js';
import { answerStatus } from './answer-status.js';
import { deepPagePath } from './deep-page.js';
import { inventory, placeOrder } from './store-scenarios.js';

export type ScenarioKind = 'read' | 'create' | 'update';

export interface Target {
  readonly origin: string;
  /** The Authorization header (and nothing else) every request carries. */
  readonly headers: Record<string, string>;
  readonly pets: number;
  /** The share of a measurement's seconds spent warming up (absent: the scenario assumes one). */
  readonly warmupShare?: number;
}

/** The media type of a body when a request names none. */
export const JSON_TYPE = 'application/json';
/** The media type of a JSON merge patch (RFC 7396), as PATCH /v1/pets/{petId} takes it. */
export const MERGE_PATCH_TYPE = 'application/merge-patch+json';

/** One request of a scenario; every request also carries the Authorization header. */
export interface BenchRequest {
  readonly method: 'GET' | 'POST' | 'PATCH';
  /** Path and query. */
  readonly path: string;
  readonly body?: string;
  /** The Content-Type of `body` (JSON_TYPE when absent); no spaces. */
  readonly contentType?: string;
}

/**
 * The requests the load generator sends in turn, again from the first after the last; or why the
 * scenario cannot run on this server. Varying requests are drawn in advance, so the load
 * generator spends no time making them up while it measures.
 */
export type Prepared =
  | {
      readonly requests: readonly BenchRequest[];
      /** What the warm-up sends instead, when a request may be sent only once (absent: `requests` too). */
      readonly warmup?: readonly BenchRequest[];
    }
  | { readonly skipped: string };

/** Varying requests drawn in advance: more than one measurement sends at this machine's rates, so little repeats. */
const DRAWN = 65_536;

export interface Scenario {
  readonly id: string;
  readonly title: string;
  readonly kind: ScenarioKind;
  readonly expectedStatus: number;
  /** Connections of the load, when not the bench's (--connections): 1 measures the time to answer, not a queue's wait. */
  readonly connections?: number;
  /** The requests to send; asynchronous only where it asks the server first. */
  prepare(target: Target): Prepared | Promise<Prepared>;
}

/** A small deterministic generator, so every server is asked for the same ids in the same order. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const fixed = (path: string): Prepared => ({ requests: [{ method: 'GET', path }] });

/** Drawn from one fixed seed: every server is sent exactly the same requests in the same order. */
const drawn = (make: (random: () => number, index: number) => BenchRequest): Prepared => {
  const random = mulberry32(1000);
  return { requests: Array.from({ length: DRAWN }, (_, index) => make(random, index)) };
};

export const listFirstPage: Scenario = {
  id: 'list-20',
  title: 'GET /v1/pets?limit=20',
  kind: 'read',
  expectedStatus: 200,
  prepare: () => fixed('/v1/pets?limit=20'),
};

export const listByStatus: Scenario = {
  id: 'status-sold-100',
  title: 'GET /v1/pets?status=sold&limit=100',
  kind: 'read',
  expectedStatus: 200,
  prepare: () => fixed('/v1/pets?status=sold&limit=100'),
};

/** The page halfway through the data, reached by following rel="next" from the first 100-pet page. */
export const deepPage: Scenario = {
  id: 'deep-page',
  title: 'halfway page, limit=100, by cursor',
  kind: 'read',
  expectedStatus: 200,
  prepare: async ({ origin, headers, pets }) => {
    const path = await deepPagePath(origin, '/v1/pets?limit=100', Math.max(1, Math.floor(pets / 2 / 100)), headers);
    return path === undefined ? { skipped: 'the server sends no Link rel=next' } : fixed(path);
  },
};

export const getById: Scenario = {
  id: 'get-by-id',
  title: 'GET /v1/pets/{random id}',
  kind: 'read',
  expectedStatus: 200,
  // Uniform among the seeded ids 1..pets.
  prepare: ({ pets }) => drawn((random) => ({ method: 'GET', path: `/v1/pets/${1 + Math.floor(random() * pets)}` })),
};

const STATUSES = ['available', 'pending', 'sold'] as const;

export const createPet: Scenario = {
  id: 'create',
  title: 'POST /v1/pets',
  kind: 'create',
  expectedStatus: 201,
  prepare: () =>
    drawn((random, index) => ({
      method: 'POST',
      path: '/v1/pets',
      body: JSON.stringify({
        name: `Bench pet ${Math.floor(random() * 1e9).toString(36)}`,
        categoryId: 1 + Math.floor(random() * 50),
        status: STATUSES[index % STATUSES.length],
      }),
    })),
};

/** The status of pet `id` with a merge patch that changes nothing; resolves to the status answered. */
const patchAnswer = (origin: string, headers: Record<string, string>, id: number): Promise<number> =>
  answerStatus(origin, headers, 'PATCH', `/v1/pets/${id}`, {
    text: JSON.stringify({ status: seededStatus(id) }),
    contentType: MERGE_PATCH_TYPE,
  });

/** A seeded id whose status is not `sold`: uniform among them, by drawing again when it is. */
export function unsoldId(random: () => number, pets: number): number {
  for (;;) {
    const id = 1 + Math.floor(random() * pets);
    if (seededStatus(id) !== 'sold') return id;
  }
}

/**
 * A status change that the status rule always allows: pets that were never `sold`, set to
 * `available` or `pending` (a change about half the time, else the same status: no change), without
 * If-Match (the last write wins). The statuses of sold pets are left alone, so `status-sold-100` is unmoved.
 */
export const patchStatus: Scenario = {
  id: 'patch-status',
  title: 'PATCH /v1/pets/{random id} status',
  kind: 'update',
  expectedStatus: 200,
  prepare: async ({ origin, headers, pets }) => {
    // Pet 1 is seeded `pending`: setting it `pending` changes nothing, on a server that has PATCH.
    const answered = await patchAnswer(origin, headers, 1);
    if (answered === 404 || answered === 405) return { skipped: `the server has no PATCH /v1/pets/{petId} (it answered ${answered})` };
    if (answered !== 200) throw new Error(`PATCH /v1/pets/1 setting its own status answered ${answered}, not 200`);
    return drawn((random) => ({
      method: 'PATCH',
      path: `/v1/pets/${unsoldId(random, pets)}`,
      body: JSON.stringify({ status: random() < 0.5 ? 'available' : 'pending' }),
      contentType: MERGE_PATCH_TYPE,
    }));
  },
};

/**
 * In this order: every read of pets before the writes, so the reads see exactly the seeded data;
 * the store last, place-order after create, whose target it is measured against.
 */
export const SCENARIOS: readonly Scenario[] = [
  listFirstPage,
  listByStatus,
  deepPage,
  getById,
  createPet,
  patchStatus,
  placeOrder,
  inventory,
];
