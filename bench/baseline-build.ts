// The baseline runs as plain JavaScript on plain node, with no loader thread beside it:
// its TypeScript files are only stripped of types (transpileModule), next to node_modules.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** The baseline's modules: its entry, the shared handler, and the storage of each database. */
const MODULES = ['baseline-server', 'baseline-handler', 'baseline-sqlite', 'baseline-postgres'];

/**
 * Writes bench/.compiled/<module>.js for each module (ES modules: the package's "type" is
 * "module", and their imports already name `.js` files); returns the path of the entry.
 */
export function compileBaseline(root: string): string {
  const dir = join(root, 'bench/.compiled');
  mkdirSync(dir, { recursive: true });
  for (const name of MODULES) {
    const { outputText } = ts.transpileModule(readFileSync(join(root, `bench/${name}.ts`), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023, esModuleInterop: true },
      fileName: `${name}.ts`,
    });
    writeFileSync(join(dir, `${name}.js`), outputText);
  }
  return join(dir, 'baseline-server.js');
}
