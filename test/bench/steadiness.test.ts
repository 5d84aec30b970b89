// The bench's check that the machine kept its speed through a run (bench/report/steadiness.ts): a
// warning when the same server's CPU per request moved between rounds, none when it held.
import { expect } from 'chai';
import type { Measurement, Outcome } from '../../bench/harness/measure.js';
import type { ScenarioResult } from '../../bench/harness/run-scenarios.js';
import { cpuSpread, steadiness, steadinessNote, UNSTEADY_SPREAD } from '../../bench/report/steadiness.js';

const round = (serverCpuMicrosPerRequest: number, disturbed = false): Outcome => {
  const measured: Measurement = {
    requestsPerSecond: 1e6 / serverCpuMicrosPerRequest,
    p50Ms: 1,
    p99Ms: 2,
    peakRssMb: 100,
    failures: 0,
    serverCpuPercent: 100,
    generatorCpuPercent: 20,
    othersCpuPercent: disturbed ? 40 : 0,
    serverCpuMicrosPerRequest,
    disturbed,
  };
  return { measured };
};

const scenario = (id: string, rounds: ScenarioResult['rounds']): ScenarioResult => ({ id, title: id, kind: 'read', medians: {}, rounds });

describe('bench: the steadiness of the machine through a run', () => {
  it('measures a server by its highest CPU per request over its lowest, undisturbed rounds only', () => {
    expect(cpuSpread([round(40), round(50), round(44)])).to.equal(1.25);
    expect(cpuSpread([round(40), round(100, true), round(44)])).to.be.closeTo(1.1, 1e-9);
    expect(cpuSpread([round(40)])).to.equal(undefined);
    expect(cpuSpread([round(40), { skipped: 'no PostgreSQL' }])).to.equal(undefined);
  });

  it('stays silent when every server cost about the same in every round', () => {
    const results = [
      scenario('get-by-id', { project: [round(46), round(51), round(41)], 'card-floor': [round(27), round(27), round(23)] }),
      scenario('list-20', { project: [round(70), round(77), round(70)], 'card-floor': [round(60), round(54), round(56)] }),
    ];
    expect(steadiness(results).every((s) => !s.unsteady)).to.equal(true);
    expect(steadinessNote(results)).to.equal('');
  });

  it('warns, naming the scenario and its spread, when the same work cost much more in some rounds', () => {
    const results = [
      scenario('list-20', { project: [round(70), round(77), round(70)], 'card-floor': [round(60), round(54), round(56)] }),
      scenario('create', {
        project: [round(343), round(208), round(263)],
        baseline: [round(203), round(138), round(149)],
        'one-process': [round(218), round(124)],
      }),
    ];
    const [list, create] = steadiness(results);
    expect(list!.unsteady).to.equal(false);
    expect(create!.unsteady).to.equal(true);
    expect(create!.medianSpread).to.be.above(UNSTEADY_SPREAD);
    const note = steadinessNote(results);
    expect(note).to.match(/^\n\nWARNING: the machine's speed changed during the run/);
    expect(note).to.include(`create ${create!.medianSpread.toFixed(2)}×`);
    expect(note).not.to.include('list-20');
  });

  it('leaves out a scenario whose servers were each measured once', () => {
    expect(steadiness([scenario('deep-page', { project: [round(140)], 'card-floor': [round(139)] })])).to.deep.equal([]);
  });
});
