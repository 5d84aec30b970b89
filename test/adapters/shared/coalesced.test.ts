// One run at a time, and each call answered by a run that started after it: what lets the
// outbox's ordering and the relays' NOTIFY serve a burst of calls with two runs.
import { expect } from 'chai';
import { coalesced, joined } from '../../../src/adapters/shared/coalesced.js';

/** A run the test settles by hand, and the runs started so far. */
function heldRuns() {
  const runs: Array<{ settle: (fault?: Error) => void }> = [];
  const run = () =>
    new Promise<void>((resolve, reject) => runs.push({ settle: (fault) => (fault === undefined ? resolve() : reject(fault)) }));
  return { runs, call: coalesced(run) };
}

const settled = (promise: Promise<void>) => {
  const state = { done: false };
  void promise.then(
    () => (state.done = true),
    () => (state.done = true),
  );
  return state;
};

describe('coalesced', () => {
  it('starts a run at once when none is under way', async () => {
    const { runs, call } = heldRuns();
    const first = call();
    expect(runs).to.have.length(1);
    runs[0]!.settle();
    await first;
  });

  it('answers the calls made during a run with one run after it, not with the run under way', async () => {
    const { runs, call } = heldRuns();
    const first = call();
    const meanwhile = [call(), call(), call()];
    expect(runs, 'no second run while the first is under way').to.have.length(1);
    const waiting = settled(Promise.all(meanwhile).then(() => undefined));
    runs[0]!.settle();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs, 'one run for the three calls').to.have.length(2);
    expect(waiting.done, 'the calls wait for the run after the first').to.equal(false);
    runs[1]!.settle();
    await Promise.all(meanwhile);
    expect(runs).to.have.length(2);
  });

  it('fails the calls a failed run answers, and runs again for the next call', async () => {
    const { runs, call } = heldRuns();
    const first = call();
    runs[0]!.settle(new Error('refused'));
    await first.then(
      () => expect.fail('the failed run answered as done'),
      (fault: Error) => expect(fault.message).to.equal('refused'),
    );
    const again = call();
    expect(runs).to.have.length(2);
    runs[1]!.settle();
    await again;
  });

  it('still runs the shared next run when the run under way fails', async () => {
    const { runs, call } = heldRuns();
    const first = call().catch(() => undefined);
    const meanwhile = call();
    runs[0]!.settle(new Error('refused'));
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).to.have.length(2);
    runs[1]!.settle();
    await meanwhile;
  });
});

describe('joined', () => {
  it('answers the calls made during a run with that run, and starts a new one for a call after it', async () => {
    const runs: Array<() => void> = [];
    const call = joined(() => new Promise<void>((resolve) => runs.push(resolve)));
    const first = call();
    const meanwhile = [call(), call()];
    expect(runs, 'one run for the three calls').to.have.length(1);
    runs[0]!();
    await Promise.all([first, ...meanwhile]);
    const after = call();
    expect(runs, 'a call after the run starts another').to.have.length(2);
    runs[1]!();
    await after;
  });
});
