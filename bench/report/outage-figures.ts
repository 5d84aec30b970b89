// What an --outage run measured, from what the client, the webhook receiver and the stream saw:
// the delays from each create's 201 to its delivery's 2xx and to its event in the stream, and
// whether the stream holds every event of the run once, each pet's in commit order.
import { percentile } from '../harness/autocannon-load.js';
import type { PacedCreate, PacedLoad } from '../harness/paced-creates.js';
import type { StoredEvent } from '../harness/stream-events.js';
import type { ReceivedEvent } from '../harness/webhook-receiver.js';

const CREATED = 'petstore.pet.created';
const PET_CHANGES = new Set([CREATED, 'petstore.pet.updated']);

/** p50, p99 and the most of some delays, in ms (NaN when there are none). */
export interface Delays {
  readonly count: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

export function delaysOf(values: readonly number[]): Delays {
  const sorted = Float64Array.from(values).sort();
  return {
    count: sorted.length,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted.length === 0 ? Number.NaN : sorted[sorted.length - 1]!,
  };
}

/** The creates whose 201 arrived in [fromMs, toMs). */
export const answeredWithin = (creates: readonly PacedCreate[], fromMs: number, toMs: number): PacedCreate[] =>
  creates.filter((c) => c.answeredAtMs >= fromMs && c.answeredAtMs < toMs);

/** When each pet's created event arrived somewhere (ms since the epoch), by pet id. */
export type ArrivalByPet = ReadonlyMap<string, number>;

export const deliveredByPet = (received: ReadonlyMap<string, ReceivedEvent>): ArrivalByPet =>
  new Map([...received.values()].filter((e) => e.type === CREATED).map((e) => [e.about, e.answeredAtMs]));

/** The first copy of each pet's created event in the stream. */
export function storedByPet(stored: readonly StoredEvent[]): ArrivalByPet {
  const byPet = new Map<string, number>();
  for (const e of stored) if (e.type === CREATED && !byPet.has(e.about)) byPet.set(e.about, e.storedAtMs);
  return byPet;
}

/** From each create's 201 to its event's arrival; the creates whose event never arrived are counted apart. */
export function delaysFrom(creates: readonly PacedCreate[], arrivals: ArrivalByPet): Delays & { readonly missing: number } {
  const values = creates.flatMap((c) => {
    const at = arrivals.get(c.petId);
    return at === undefined ? [] : [at - c.answeredAtMs];
  });
  return { ...delaysOf(values), missing: creates.length - values.length };
}

/**
 * Second by second of the load (by the 201's time, from `startMs`): how many creates were
 * answered, and the p50 and most of their delays to `arrivals` (NaN where none arrived).
 */
export function delaysBySecond(creates: readonly PacedCreate[], arrivals: ArrivalByPet, startMs: number) {
  const seconds: number[][] = [];
  for (const c of creates) {
    const at = arrivals.get(c.petId);
    const second = Math.floor((c.answeredAtMs - startMs) / 1000);
    (seconds[second] ??= []).push(at === undefined ? Number.NaN : at - c.answeredAtMs);
  }
  return Array.from(seconds, (values = [], second) => {
    const { count, p50Ms, maxMs } = delaysOf(values.filter((v) => !Number.isNaN(v)));
    return { second, creates: values.length, arrived: count, p50Ms: Math.round(p50Ms), maxMs: Math.round(maxMs) };
  });
}

/** Whether the stream holds each event of the run once, and each pet's in the order its changes committed. */
export interface StreamCheck {
  /** Events the run's answered changes made (creates and renames). */
  readonly expected: number;
  /** Of those, the ones the stream does not hold. */
  readonly missing: number;
  /** Copies of an event (by CloudEvent id) beyond its first. */
  readonly duplicated: number;
  /** Pets whose events are not in commit order (their names `.0`, `.1` … out of turn). */
  readonly outOfOrder: number;
  /** Events of the stream that no answered change of the run made. */
  readonly unexpected: number;
}

/** The step a pet's name ends in: `Outage 40.2` → 2. */
const stepOf = (name: string | undefined): number => Number(/\.(\d+)$/.exec(name ?? '')?.[1] ?? Number.NaN);

export function checkStream(load: PacedLoad, stored: readonly StoredEvent[]): StreamCheck {
  const expectedSteps = new Map(load.creates.map((c) => [c.petId, load.renamed.get(c.petId) ?? 0]));
  const ids = new Set<string>();
  const steps = new Map<string, number[]>();
  let duplicated = 0;
  let unexpected = 0;
  for (const event of stored) {
    if (ids.has(event.id)) {
      duplicated++;
      continue;
    }
    ids.add(event.id);
    const last = expectedSteps.get(event.about);
    const step = stepOf(event.name);
    if (!PET_CHANGES.has(event.type) || last === undefined || !(step <= last)) unexpected++;
    else steps.set(event.about, [...(steps.get(event.about) ?? []), step]);
  }
  let missing = 0;
  let outOfOrder = 0;
  for (const [pet, last] of expectedSteps) {
    const seen = steps.get(pet) ?? [];
    missing += last + 1 - new Set(seen).size;
    if (seen.some((step, i) => i > 0 && step <= seen[i - 1]!)) outOfOrder++;
  }
  const expected = [...expectedSteps.values()].reduce((sum, last) => sum + last + 1, 0);
  return { expected, missing, duplicated, outOfOrder, unexpected };
}

/** Deliveries the endpoint got of an event it had already answered. */
export const duplicateDeliveries = (received: ReadonlyMap<string, ReceivedEvent>): number =>
  [...received.values()].reduce((sum, e) => sum + e.deliveries - 1, 0);
