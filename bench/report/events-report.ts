// The change events' cost and delay (--events): the creates of the project with its events relayed
// to NATS JetStream over the same with no events at all, measured in the same rounds, and what the
// probe saw from each 201 to its event in the stream (harness/event-probe.ts).
import { measuredOf } from '../harness/measure.js';
import type { ScenarioResult } from '../harness/run-scenarios.js';
import { EVENTS_TARGET, type Verdict } from '../scenarios/targets.js';
import type { Table } from './report.js';

const { server, of, least } = EVENTS_TARGET;

/** What a scenario measured with and without events says, and whether it meets the target; absent when either was not measured. */
export function eventsVerdict(r: ScenarioResult): (Verdict & { readonly ratio: number }) | undefined {
  const on = measuredOf(r.medians[server]);
  const off = measuredOf(r.medians[of]);
  if (on === undefined || off === undefined) return undefined;
  const ratio = on.requestsPerSecond / off.requestsPerSecond;
  const misses: string[] = [];
  if (!(ratio >= least)) misses.push(`throughput ${ratio.toFixed(3)} < ${least.toFixed(2)} × ${of}`);
  if (on.failures + off.failures > 0) misses.push('failed requests');
  const events = on.events;
  if (events === undefined || events.probes === 0) misses.push('no probe was answered');
  else if (events.unseen > 0) misses.push(`${events.unseen} of ${events.probes} probes' events never seen`);
  if ((events?.failed ?? 0) > 0) misses.push(`${events!.failed} probe creates failed`);
  return { met: misses.length === 0, speedJudged: true, misses, ratio };
}

const ms = (value: number | undefined): string => (value === undefined || Number.isNaN(value) ? '—' : value.toFixed(2));

/** One row per scenario measured with and without events (create). */
export function eventsTable(results: readonly ScenarioResult[]): Table {
  return {
    header: [
      'scenario',
      'events off req/s',
      'JetStream req/s',
      `JetStream ÷ events off (target ≥ ${least.toFixed(2)})`,
      'p99 ms events off / JetStream',
      '201 → stream p50 / p99 ms',
      'probes (never seen)',
      'nats-server % CPU',
      'target met?',
    ],
    rows: results.flatMap((r) => {
      if (r.rounds[server] === undefined) return [];
      const on = measuredOf(r.medians[server]);
      const off = measuredOf(r.medians[of]);
      const verdict = eventsVerdict(r);
      const events = on?.events;
      return [
        [
          r.title,
          off?.requestsPerSecond.toFixed(0) ?? '—',
          on?.requestsPerSecond.toFixed(0) ?? '—',
          verdict?.ratio.toFixed(2) ?? '—',
          `${ms(off?.p99Ms)} / ${ms(on?.p99Ms)}`,
          `${ms(events?.p50Ms)} / ${ms(events?.p99Ms)}`,
          events === undefined ? '—' : `${events.probes} (${events.unseen})`,
          events?.natsCpuPercent.toFixed(0) ?? '—',
          verdict === undefined
            ? '— (not judged: a server it needs was not measured)'
            : verdict.met
              ? 'yes'
              : `no: ${verdict.misses.join(', ')}`,
        ],
      ];
    }),
  };
}

/** The events' figures as the results file keeps them, beside the scenarios. */
export const eventsSummary = (results: readonly ScenarioResult[]) =>
  results.flatMap((r) => {
    const verdict = eventsVerdict(r);
    const events = measuredOf(r.medians[server])?.events;
    if (verdict === undefined) return [];
    const { delaysMs: _all, ...delay } = events ?? { delaysMs: [] };
    return [{ scenario: r.id, target: EVENTS_TARGET, ratio: verdict.ratio, met: verdict.met, misses: verdict.misses, delay }];
  });

/** Said under the events table. */
export const EVENTS_NOTE =
  '"events off" is the project with PETSTORE_EVENTS=off; "JetStream" the project with PETSTORE_NATS_URL set to a nats-server ' +
  'the bench started for this run (JetStream, a temp store), both on their own copy of the database, in the same rounds as the ' +
  'others. 201 → stream: from the arrival of the 201 of a probe create (one every 20 ms, in the bench process, over keep-alive ' +
  'HTTP, not counted in req/s) to the time JetStream stored its event (read from the stream after the load, so that no ' +
  'subscriber runs beside the server measured); p50 and p99 over the probes of every undisturbed round. nats-server CPU is ' +
  'not counted as "other processes".';
