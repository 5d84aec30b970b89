// Every export of the public surface (src/index.ts and the client's own entry) carries TSDoc
// where it is declared, so the documentation an integrator's editor shows never goes missing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';
import { tempDir } from '../support/temp-dir.js';

const ENTRY_POINTS = ['src/index.ts', 'src/client/index.ts'];

/** The exports of `file` that have no documentation comment, by name. */
function undocumentedExports(program: ts.Program, file: string): string[] {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  if (source === undefined) throw new Error(`${file} is not part of the program`);
  const module = checker.getSymbolAtLocation(source)!;
  return checker
    .getExportsOfModule(module)
    .filter((exported) => {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      return symbol.getDocumentationComment(checker).length === 0 && symbol.getJsDocTags(checker).length === 0;
    })
    .map((symbol) => symbol.getName())
    .sort();
}

const programOf = (files: readonly string[]): ts.Program =>
  ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    experimentalDecorators: true,
    types: ['node'],
  });

describe('the public API', () => {
  it('documents every export of src/index.ts and of the client with TSDoc', function () {
    this.timeout(60_000);
    const program = programOf(ENTRY_POINTS);
    for (const file of ENTRY_POINTS) expect(undocumentedExports(program, file), file).to.deep.equal([]);
  });

  it('is checked for real: an export without TSDoc, direct or re-exported, is found', () => {
    const dir = tempDir();
    try {
      writeFileSync(join(dir.path, 'inner.ts'), '/** Documented. */\nexport const documented = 1;\nexport interface Bare { a: number }\n');
      writeFileSync(
        join(dir.path, 'entry.ts'),
        "export * from './inner.js';\nexport const plain = 2;\n/** Yes. */\nexport function fine() {}\n",
      );
      const entry = join(dir.path, 'entry.ts');
      expect(undocumentedExports(programOf([entry]), entry)).to.deep.equal(['Bare', 'plain']);
    } finally {
      dir.remove();
    }
  });
});
