// The batching of group commit, with a writer of its own that records each batch it is given:
// the calls of one event-loop turn are one batch, one batch is written at a time, and what a
// batch's writer answers (or throws) reaches each of its callers.
import { expect } from 'chai';
import { type WriteOutcome, writeBatches } from '../../../src/adapters/shared/write-batches.js';

/** A writer that doubles each item, answering when `release()` is called for its batch. */
function recordingWriter() {
  const batches: number[][] = [];
  const releases: Array<() => void> = [];
  const writer = (items: readonly number[]): Promise<readonly WriteOutcome<number>[]> => {
    batches.push([...items]);
    return new Promise((resolve) => releases.push(() => resolve(items.map((item) => ({ ok: true, output: item * 2 })))));
  };
  return { batches, writer, release: (i: number) => releases[i]!() };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('writeBatches', () => {
  it('gives the writes of one event-loop turn to the writer as one batch, and each caller its own outcome', async () => {
    const { batches, writer, release } = recordingWriter();
    const write = writeBatches(writer);
    const answers = Promise.all([write(1), write(2), write(3)]);
    await nextTurn();
    expect(batches).to.deep.equal([[1, 2, 3]]);
    release(0);
    expect(await answers).to.deep.equal([2, 4, 6]);
  });

  it('writes one batch at a time: the writes asked for meanwhile wait, then go together', async () => {
    const { batches, writer, release } = recordingWriter();
    const write = writeBatches(writer);
    const first = write(1);
    await nextTurn();
    const later = [write(2), write(3)];
    await nextTurn();
    const last = write(4);
    await nextTurn();
    expect(batches, 'nothing more while the first batch is being written').to.deep.equal([[1]]);
    release(0);
    expect(await first).to.equal(2);
    await nextTurn();
    expect(batches).to.deep.equal([[1], [2, 3, 4]]);
    release(1);
    expect(await Promise.all([...later, last])).to.deep.equal([4, 6, 8]);
  });

  it('fails every write of a batch whose writer throws, and writes the next batch all the same', async () => {
    let calls = 0;
    const write = writeBatches((items: readonly string[]) => {
      calls += 1;
      if (calls === 1) throw new Error('COMMIT failed');
      return items.map((item): WriteOutcome<string> =>
        item === 'bad' ? { ok: false, error: new Error('refused') } : { ok: true, output: item },
      );
    });
    const failed = await Promise.allSettled([write('a'), write('b')]);
    expect(failed.map((r) => r.status)).to.deep.equal(['rejected', 'rejected']);
    expect(String((failed[0] as PromiseRejectedResult).reason)).to.contain('COMMIT failed');
    const next = await Promise.allSettled([write('c'), write('bad')]);
    expect(next.map((r) => r.status)).to.deep.equal(['fulfilled', 'rejected']);
    expect(String((next[1] as PromiseRejectedResult).reason)).to.contain('refused');
  });

  it('fails the writes a writer answered no outcome for, rather than leaving them waiting', async () => {
    const write = writeBatches((items: readonly number[]) =>
      items.slice(1).map((item): WriteOutcome<number> => ({ ok: true, output: item })),
    );
    const results = await Promise.allSettled([write(1), write(2)]);
    expect(results.map((r) => r.status)).to.deep.equal(['fulfilled', 'rejected']);
    expect(String((results[1] as PromiseRejectedResult).reason)).to.contain('1 outcomes for 2 writes');
  });
});
