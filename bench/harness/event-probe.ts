// The end-to-end delay of a change event (--events): while the project with JetStream is measured
// on creates, a probe in the bench's process makes one create of its own every PROBE_EVERY_MS over
// keep-alive HTTP and notes when each 201 arrived. Once the load is over, it reads the stream from
// where it stood when the probe started, and finds each probe's event (the created event whose
// `subject` is that pet's id) with the time JetStream stored it. The delay is the second time less
// the first. Nothing subscribes while the load runs: a subscriber to every created event would
// take CPU from the server measured, beside it on the same machine, only when events are on.
import { Agent, request } from 'node:http';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { EVENTS_DEFAULTS } from '../../src/config/events-config.js';
import { percentile } from './autocannon-load.js';
import { treeTicks } from './cpu-use.js';
import { lastSequence, readStoredEvents } from './stream-events.js';

/** One create of the probe every so many milliseconds (fewer when an answer takes longer). */
export const PROBE_EVERY_MS = 20;
/**
 * After the load ends, the probe waits for the events of its creates while they keep coming: until
 * none of the created subject has arrived for `quietMs` (the relay has caught up, or stopped), and
 * `graceMs` at the most. A probe whose event had not come by then is never seen: late or lost.
 */
export const PROBE_WAIT = { quietMs: 2000, graceMs: 30_000 } as const;
/** The subject of the events of creates (docs/events.md). */
export const CREATED_SUBJECT = 'petstore.pet.created';
/** The stream the project publishes to: its default, which the bench leaves as it is. */
export const EVENT_STREAM = EVENTS_DEFAULTS.PETSTORE_NATS_STREAM;

const TICKS_PER_SECOND = 100; // USER_HZ, fixed at 100 on Linux

/** What the probe saw during one measurement, or several pooled. */
export interface EventDelays {
  /** Probe creates answered 201. */
  readonly probes: number;
  /** Of those, the ones whose event the stream did not hold when the probe stopped waiting (PROBE_WAIT). */
  readonly unseen: number;
  /** Probe creates answered otherwise, or not at all. */
  readonly failed: number;
  /** From each 201 to its event's storing in the stream, in ms, in the order of the probes (negative when the event came first). */
  readonly delaysMs: readonly number[];
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** The nats-server's CPU while the load ran, in % of one CPU: part of the work measured, not a disturbance. */
  readonly natsCpuPercent: number;
}

/** The nats-server a project publishes its events to. */
export interface NatsTarget {
  readonly url: string;
  readonly pid: number;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** One create: the new pet's id (as events name it) and when its 201 arrived (ms since the epoch); undefined for any other answer. */
function createOnce(origin: string, headers: Record<string, string>, agent: Agent, n: number): Promise<[string, number] | undefined> {
  const body = JSON.stringify({ name: `Probe ${n}`, categoryId: 1 });
  return new Promise((resolve) => {
    const req = request(
      new URL('/v1/pets', origin),
      { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          const at = performance.timeOrigin + performance.now();
          const id = res.statusCode === 201 ? (JSON.parse(text) as { id?: unknown }).id : undefined;
          resolve(typeof id === 'number' ? [String(id), at] : undefined);
        });
      },
    );
    req.on('error', () => resolve(undefined));
    req.end(body);
  });
}

/** p50 and p99 of `delays` (NaN when there are none). */
function delayFigures(delays: readonly number[]): Pick<EventDelays, 'p50Ms' | 'p99Ms'> {
  const sorted = Float64Array.from(delays).sort();
  return { p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99) };
}

/** Into `stored`, for each created event of the stream from `from` to `to` (sequences), its pet's id and when JetStream stored it. */
async function readCreated(connection: NatsConnection, stream: string, from: number, to: number, stored: Map<string, number>) {
  for (const event of await readStoredEvents(connection, stream, from, to))
    if (event.type === CREATED_SUBJECT) stored.set(event.about, event.storedAtMs);
}

/** Starts probing `origin` (the project, publishing to `nats`); stop() ends it and answers what it saw. */
export async function startEventProbe(
  origin: string,
  headers: Record<string, string>,
  nats: NatsTarget,
  {
    everyMs = PROBE_EVERY_MS,
    stream = EVENT_STREAM,
    ...wait
  }: { everyMs?: number; stream?: string; quietMs?: number; graceMs?: number } = {},
): Promise<{ stop(): Promise<EventDelays> }> {
  const { quietMs, graceMs } = { ...PROBE_WAIT, ...wait };
  const connection = await connect({ servers: nats.url, name: 'petstore-bench-probe' });
  const jsm = await jetstreamManager(connection);
  let read = await lastSequence(jsm, stream);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const answered: [string, number][] = [];
  let failed = 0;
  let running = true;
  const started = performance.now();
  const natsTicks = treeTicks([nats.pid]);
  const probing = (async () => {
    for (let n = 0, next = performance.now(); running; n++) {
      const created = await createOnce(origin, headers, agent, n);
      if (created === undefined) failed++;
      else answered.push(created);
      next += everyMs;
      await pause(next - performance.now());
    }
  })();
  return {
    stop: async () => {
      running = false;
      const natsCpuPercent = (100 * (treeTicks([nats.pid]) - natsTicks)) / TICKS_PER_SECOND / ((performance.now() - started) / 1000);
      await probing;
      // The relay may still be publishing: read what the stream holds while it keeps growing.
      const stored = new Map<string, number>();
      const deadline = performance.now() + graceMs;
      let grew = performance.now();
      for (;;) {
        const last = await lastSequence(jsm, stream);
        if (last > read) {
          await readCreated(connection, stream, read + 1, last, stored);
          read = last;
          grew = performance.now();
        }
        const waiting = answered.some(([id]) => !stored.has(id));
        if (!waiting || performance.now() >= deadline || performance.now() - grew >= quietMs) break;
        await pause(50);
      }
      await connection.close();
      agent.destroy();
      const delaysMs = answered.flatMap(([id, at]) => (stored.has(id) ? [stored.get(id)! - at] : []));
      return {
        probes: answered.length,
        unseen: answered.length - delaysMs.length,
        failed,
        delaysMs,
        ...delayFigures(delaysMs),
        natsCpuPercent,
      };
    },
  };
}

/** Several measurements' probes as one: every delay together, the nats-server's CPU their mean. */
export function pooledDelays(each: readonly EventDelays[]): EventDelays | undefined {
  if (each.length === 0) return undefined;
  const delaysMs = each.flatMap((d) => d.delaysMs);
  const sum = (pick: (d: EventDelays) => number): number => each.reduce((total, d) => total + pick(d), 0);
  return {
    probes: sum((d) => d.probes),
    unseen: sum((d) => d.unseen),
    failed: sum((d) => d.failed),
    delaysMs,
    ...delayFigures(delaysMs),
    natsCpuPercent: sum((d) => d.natsCpuPercent) / each.length,
  };
}

/** One line for the log of a round. */
export const describeDelays = (d: EventDelays): string =>
  `events: ${d.probes} probes, 201 → stream p50 ${d.p50Ms.toFixed(2)} ms, p99 ${d.p99Ms.toFixed(2)} ms, ` +
  `${d.unseen} never seen${d.failed > 0 ? `, ${d.failed} probe creates FAILED` : ''}, nats-server CPU ${d.natsCpuPercent.toFixed(0)}%`;
