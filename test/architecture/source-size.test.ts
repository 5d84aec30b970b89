// Sizes that src keeps to: a function that does one job and a file that holds one concept fit
// within them. A function counts from its first line to its last, inner functions included.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { type Measured, measureFiles, measureFunctions } from './source-size.js';

const MAX_FUNCTION_LINES = 80;
const MAX_FILE_LINES = 250;

const described = (found: readonly Measured[]) => found.map(({ file, line, name, lines }) => `${file}:${line} ${name} (${lines} lines)`);

describe('the size of src', () => {
  it(`has no function over ${MAX_FUNCTION_LINES} lines`, () => {
    expect(described(measureFunctions('src').filter(({ lines }) => lines > MAX_FUNCTION_LINES))).to.deep.equal([]);
  });

  it(`has no file over ${MAX_FILE_LINES} lines`, () => {
    expect(described(measureFiles('src').filter(({ lines }) => lines > MAX_FILE_LINES))).to.deep.equal([]);
  });

  it('measures functions, methods and arrows from their first line to their last, and files by their lines', () => {
    const dir = mkdtempSync(join(tmpdir(), 'source-size-'));
    try {
      const source = [
        'export function outer(): number {',
        '  const inner = (): number =>',
        '    1;',
        '  return inner();',
        '}',
        'class Shape {',
        '  area(): number {',
        '    return 0;',
        '  }',
        '}',
        '',
      ].join('\n');
      writeFileSync(join(dir, 'sample.ts'), source);
      const found = measureFunctions(dir).map(({ name, line, lines }) => ({ name, line, lines }));
      expect(found).to.deep.equal([
        { name: 'outer', line: 1, lines: 5 },
        { name: 'area', line: 7, lines: 3 },
        { name: 'inner', line: 2, lines: 2 },
      ]);
      expect(measureFiles(dir).map(({ lines }) => lines)).to.deep.equal([10]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
