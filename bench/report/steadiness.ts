// Whether the machine kept its speed through a run. A server doing the same work costs about the
// same CPU per request in every round on a steady machine; on a virtual machine whose host is
// busy with other guests, the same code can cost twice as much from one round to the next, and
// no ratio of the run means anything then. Other processes inside the machine are caught as
// "disturbed" rounds (harness/measure.ts); this catches what happens outside it, which no process here
// shows. See docs/performance.md.
import { type Measurement, measuredOf, type Outcome } from '../harness/measure.js';
import { median } from '../harness/rounds.js';
import type { ScenarioResult } from '../harness/run-scenarios.js';

/**
 * The median spread above which a run is called unsteady. On a quiet machine the servers' spreads
 * were 1.01–1.24 (per scenario, medians of at most 1.14); on a machine whose speed swung,
 * 1.12–1.91 (medians of 1.18–1.65: one scenario's swing stayed under the bar).
 */
export const UNSTEADY_SPREAD = 1.25;

/** The highest CPU per request of a server's undisturbed rounds over the lowest; absent with fewer than two. */
export function cpuSpread(rounds: readonly Outcome[]): number | undefined {
  const costs = rounds
    .map(measuredOf)
    .filter((m): m is Measurement => m !== undefined && !m.disturbed && m.serverCpuMicrosPerRequest > 0)
    .map((m) => m.serverCpuMicrosPerRequest);
  return costs.length < 2 ? undefined : Math.max(...costs) / Math.min(...costs);
}

export interface ScenarioSteadiness {
  readonly id: string;
  /** The median, over the scenario's servers, of each server's {@link cpuSpread}. */
  readonly medianSpread: number;
  readonly unsteady: boolean;
}

/** Each scenario's spread; a scenario with no server measured twice is left out. */
export function steadiness(results: readonly ScenarioResult[]): ScenarioSteadiness[] {
  return results.flatMap((r) => {
    const spreads = Object.values(r.rounds).flatMap((rounds) => {
      const spread = rounds === undefined ? undefined : cpuSpread(rounds);
      return spread === undefined ? [] : [spread];
    });
    if (spreads.length === 0) return [];
    const medianSpread = median(spreads);
    return [{ id: r.id, medianSpread, unsteady: medianSpread > UNSTEADY_SPREAD }];
  });
}

/** A warning to print under the tables when the machine's speed changed during the run; empty otherwise. */
export function steadinessNote(results: readonly ScenarioResult[]): string {
  const unsteady = steadiness(results).filter((s) => s.unsteady);
  if (unsteady.length === 0) return '';
  const which = unsteady.map((s) => `${s.id} ${s.medianSpread.toFixed(2)}×`).join(', ');
  return (
    `\n\nWARNING: the machine's speed changed during the run. The same server doing the same work cost more CPU per ` +
    `request in some rounds than in others, by a median of ${which} (more than ${UNSTEADY_SPREAD}×). ` +
    'Its host was busy with other work, which no process here shows: the ratios of this run are not reliable. Run again on a steadier machine.'
  );
}
