// What long data commands tell on standard error: a bar on a terminal, a line now and then
// elsewhere (a log), nothing with --quiet. The streams here stand in for standard error.
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { startProgress } from '../../src/commands/support/progress.js';

/** A stream that keeps what is written, a terminal or not. */
function stderrLike(isTTY: boolean): { stream: NodeJS.WriteStream; text: () => string } {
  let written = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      written += chunk.toString();
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  Object.assign(stream, { isTTY, columns: 120 });
  return { stream, text: () => written };
}

describe('the progress of a data command', () => {
  it('draws a bar on a terminal: rows done of all, the rate and the time left', () => {
    const { stream, text } = stderrLike(true);
    const progress = startProgress({ label: 'import', total: 1000, quiet: false, stream });
    progress.add(400);
    progress.add(100);
    progress.stop();
    expect(text()).to.match(/import \[[█░]+\] 50% \| 500\/1000 rows \| \d+ rows\/s \| \S+ left/);
  });

  it('counts past the total it was told, rather than stopping at it', () => {
    const { stream, text } = stderrLike(true);
    const progress = startProgress({ label: 'copy', total: 10, quiet: false, stream });
    progress.add(25);
    progress.stop();
    expect(text()).to.include('25/25 rows');
  });

  it('writes a line every so often where standard error is not a terminal, with the time left', () => {
    const { stream, text } = stderrLike(false);
    const progress = startProgress({ label: 'export', total: 1000, quiet: false, stream, everySeconds: 0 });
    progress.add(250);
    progress.add(250);
    progress.stop();
    const lines = text().trimEnd().split('\n');
    expect(lines).to.have.length(2);
    expect(lines[0]).to.match(/^petstore: export: 250\/1000 rows, \d+ rows\/s, about \d+ s left$/);
    expect(lines[1]).to.match(/^petstore: export: 500\/1000 rows, \d+ rows\/s/);
  });

  it('writes no line before its interval has passed', () => {
    const { stream, text } = stderrLike(false);
    const progress = startProgress({ label: 'export', total: 1000, quiet: false, stream, everySeconds: 3600 });
    progress.add(999);
    progress.stop();
    expect(text()).to.equal('');
  });

  it('says nothing with --quiet, terminal or not', () => {
    for (const isTTY of [true, false]) {
      const { stream, text } = stderrLike(isTTY);
      const progress = startProgress({ label: 'import', total: 10, quiet: true, stream, everySeconds: 0 });
      progress.add(10);
      progress.stop();
      expect(text(), `isTTY ${isTTY}`).to.equal('');
    }
  });
});
