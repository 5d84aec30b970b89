// The environment variables the code reads are the ones the docs give, both ways: the service's
// (PETSTORE_*, read in src/) in docs/configuration.md, and the test suite's (PETSTORE_TEST_*,
// read in test/) in docs/contributing.md, which is for contributors, not operators.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { namesIn, namesUsed } from '../support/source-names.js';

const SERVICE_VARIABLE = /PETSTORE_[A-Z0-9_]+/;
const TEST_VARIABLE = /PETSTORE_TEST_[A-Z0-9_]+/;

/** What is read but not documented, and what is documented but not read. */
function mismatch(read: ReadonlySet<string>, documented: ReadonlySet<string>): { undocumented: string[]; readNowhere: string[] } {
  return {
    undocumented: [...read].filter((name) => !documented.has(name)).sort(),
    readNowhere: [...documented].filter((name) => !read.has(name)).sort(),
  };
}

describe('the documented environment variables', () => {
  it('docs/configuration.md gives exactly the PETSTORE_ variables src/ reads', () => {
    const read = namesUsed('src', SERVICE_VARIABLE);
    expect(read).to.include('PETSTORE_DB');
    const documented = namesIn(readFileSync('docs/configuration.md', 'utf8'), SERVICE_VARIABLE);
    expect(mismatch(read, documented)).to.deep.equal({ undocumented: [], readNowhere: [] });
  });

  it('docs/contributing.md gives exactly the PETSTORE_TEST_ variables the tests read', () => {
    const read = namesUsed('test', TEST_VARIABLE);
    expect(read.size).to.be.above(0);
    const documented = namesIn(readFileSync('docs/contributing.md', 'utf8'), TEST_VARIABLE);
    expect(mismatch(read, documented)).to.deep.equal({ undocumented: [], readNowhere: [] });
  });
});
