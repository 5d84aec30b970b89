// The figures of an --outage run's two phases, their verdicts, and the tables printed and written.
import type { PhaseCpu } from '../harness/phase-cpu.js';
import type { PhaseRecord } from '../runs/outage-phases.js';
import {
  answeredWithin,
  checkStream,
  type Delays,
  delaysBySecond,
  delaysFrom,
  delaysOf,
  deliveredByPet,
  duplicateDeliveries,
  type StreamCheck,
  storedByPet,
} from './outage-figures.js';
import type { Table } from './report.js';

/** The promise measured: from a create's 201 to its webhook delivery's 2xx, through a NATS outage. */
export const OUTAGE_TARGET = { webhookP99Ms: 2000 } as const;

type Missed = Delays & { readonly missing: number };

/** What a phase's load did, and what became of its events on the stream and at the endpoint. */
interface Counts {
  readonly creates: number;
  readonly started: number;
  readonly late: number;
  readonly failed: number;
  /** What came instead of a 201 or 200, and how often. */
  readonly failures: Readonly<Record<string, number>>;
  readonly stream: StreamCheck;
  readonly endpointDuplicates: number;
  readonly endpointPeakConcurrent: number;
  readonly drainS: number;
  /** From when each create was due to its 201: how the server kept up with the load. */
  readonly createMs: Delays;
  readonly cpu: PhaseCpu;
}

/** `ECONNRESET × 1, HTTP 503 × 2`. */
const reasons = (failures: Readonly<Record<string, number>>): string =>
  Object.entries(failures)
    .map(([reason, n]) => `${reason} × ${n}`)
    .join(', ');

const seconds = (fromMs: number, toMs: number): number => Math.round((toMs - fromMs) / 100) / 10;

function countsOf(phase: PhaseRecord): Counts {
  const { load } = phase;
  return {
    creates: load.creates.length,
    started: load.started,
    late: load.late,
    failed: Object.values(load.failed).reduce((sum, n) => sum + n, 0),
    failures: load.failed,
    stream: checkStream(load, phase.stored),
    endpointDuplicates: duplicateDeliveries(phase.received),
    endpointPeakConcurrent: phase.peakConcurrent,
    drainS: Math.round(phase.drainS),
    createMs: delaysOf(load.creates.map((c) => c.answeredAtMs - c.dueAtMs)),
    cpu: phase.cpu,
  };
}

/** Phase 1: the endpoint's delays over the whole load and over the creates of the outage; NATS's catching up. */
export function outageFigures(phase: PhaseRecord) {
  const { creates } = phase.load;
  const { loadStart, natsStopped, natsBack, loadEnd } = phase.marks as Record<string, number>;
  const delivered = deliveredByPet(phase.received);
  const duringOutage = answeredWithin(creates, natsStopped!, natsBack!);
  const stored = storedByPet(phase.stored);
  const nats = delaysFrom(duringOutage, stored);
  const lastOfOutage = Math.max(...duringOutage.map((c) => stored.get(c.petId) ?? Number.NaN));
  const webhook = {
    all: delaysFrom(creates, delivered),
    duringOutage: delaysFrom(duringOutage, delivered),
    bySecond: delaysBySecond(creates, delivered, loadStart!),
  };
  const counts = countsOf(phase);
  const misses = [
    ...[webhook.all, webhook.duringOutage]
      .filter((d) => !(d.p99Ms <= OUTAGE_TARGET.webhookP99Ms))
      .map((d) => `webhook p99 ${d.p99Ms.toFixed(0)} ms > ${OUTAGE_TARGET.webhookP99Ms} ms`),
    ...(webhook.all.missing > 0 ? [`${webhook.all.missing} creates' deliveries never came`] : []),
    ...streamMisses(counts),
  ];
  return {
    windowsS: { before: seconds(loadStart!, natsStopped!), outage: seconds(natsStopped!, natsBack!), after: seconds(natsBack!, loadEnd!) },
    webhook,
    natsDuringOutage: { ...nats, lastStoredAfterBackS: seconds(natsBack!, lastOfOutage) },
    counts,
    verdict: { met: misses.length === 0, misses },
  };
}

/** Phase 2: NATS's delays with the endpoint fast, then slow. */
export function slowEndpointFigures(phase: PhaseRecord) {
  const { creates } = phase.load;
  const { loadStart, fast, slow, loadEnd } = phase.marks as Record<string, number>;
  const stored = storedByPet(phase.stored);
  const nats = {
    endpointFast: delaysFrom(answeredWithin(creates, fast!, slow!), stored),
    endpointSlow: delaysFrom(answeredWithin(creates, slow!, loadEnd!), stored),
    bySecond: delaysBySecond(creates, stored, loadStart!),
  };
  const delivered = [...phase.received.values()].filter((e) => e.answeredAtMs >= slow! && e.answeredAtMs < loadEnd!).length;
  const counts = countsOf(phase);
  const misses = streamMisses(counts);
  return {
    windowsS: { fast: seconds(fast!, slow!), slow: seconds(slow!, loadEnd!) },
    nats,
    deliveredWhileSlow: delivered,
    counts,
    verdict: { met: misses.length === 0, misses },
  };
}

function streamMisses({ stream, failed, failures }: Counts): string[] {
  const { missing, duplicated, outOfOrder, unexpected } = stream;
  return [
    ...(failed > 0 ? [`${failed} requests failed (${reasons(failures)})`] : []),
    ...(missing > 0 ? [`${missing} events missing from the stream`] : []),
    ...(duplicated > 0 ? [`${duplicated} duplicated on the stream`] : []),
    ...(outOfOrder > 0 ? [`${outOfOrder} pets out of order`] : []),
    ...(unexpected > 0 ? [`${unexpected} unexpected events`] : []),
  ];
}

export type OutageFigures = ReturnType<typeof outageFigures>;
export type SlowEndpointFigures = ReturnType<typeof slowEndpointFigures>;

const ms = (value: number): string => (Number.isNaN(value) ? '—' : value.toFixed(value < 100 ? 1 : 0));
const delayRow = (phase: string, to: string, d: Missed, target: string): string[] => [
  phase,
  to,
  String(d.count + d.missing),
  ms(d.p50Ms),
  ms(d.p99Ms),
  ms(d.maxMs),
  String(d.missing),
  target,
];
const judged = (d: Delays): string => `≤ ${OUTAGE_TARGET.webhookP99Ms}: ${d.p99Ms <= OUTAGE_TARGET.webhookP99Ms ? 'met' : 'NOT met'}`;

export function outageTables(outage: OutageFigures, slow: SlowEndpointFigures): Table[] {
  const delays: Table = {
    header: ['phase', 'from each 201 to', 'creates', 'p50 ms', 'p99 ms', 'max ms', 'never came', 'p99 target ms'],
    rows: [
      delayRow('NATS stopped', "the endpoint's 2xx, whole load", outage.webhook.all, judged(outage.webhook.all)),
      delayRow(
        'NATS stopped',
        "the endpoint's 2xx, creates of the outage",
        outage.webhook.duringOutage,
        judged(outage.webhook.duringOutage),
      ),
      delayRow(
        'NATS stopped',
        'the stream, creates of the outage',
        outage.natsDuringOutage,
        `— (last ${outage.natsDuringOutage.lastStoredAfterBackS} s after NATS back)`,
      ),
      delayRow('slow endpoint', 'the stream, endpoint 20 ms', slow.nats.endpointFast, '—'),
      delayRow('slow endpoint', 'the stream, endpoint 5 s', slow.nats.endpointSlow, '— (reported)'),
    ],
  };
  const countRow = (phase: string, c: Counts): string[] => [
    phase,
    `${c.creates} (${c.failed} failed${c.failed > 0 ? `: ${reasons(c.failures)}` : ''}, ${c.late} late)`,
    String(c.stream.expected),
    `${c.stream.missing} / ${c.stream.duplicated} / ${c.stream.outOfOrder} / ${c.stream.unexpected}`,
    `${c.endpointDuplicates} / ${c.endpointPeakConcurrent}`,
    String(c.drainS),
    `${ms(c.createMs.p50Ms)} / ${ms(c.createMs.p99Ms)}`,
    `${[c.cpu.serverPercent, c.cpu.natsPercent, c.cpu.postgresPercent, c.cpu.benchPercent, c.cpu.othersPercent].map((p) => p.toFixed(0)).join(' / ')}${c.cpu.disturbed ? ' (disturbed)' : ''}`,
  ];
  const counts: Table = {
    header: [
      'phase',
      'creates answered 201',
      'events',
      'stream: missing / duplicated / pets out of order / unexpected',
      'endpoint: duplicates / most at once',
      'drain s',
      'due → 201 p50 / p99 ms',
      '% CPU: server / nats-server / PostgreSQL / bench / others',
    ],
    rows: [countRow('NATS stopped', outage.counts), countRow('slow endpoint', slow.counts)],
  };
  return [delays, counts];
}
