// The baseline runs as plain JavaScript on plain node, with no loader thread beside it:
// its TypeScript files are only stripped of types (transpileModule), next to node_modules.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';

/** The baseline's modules, from the root: its entry, the shared handler, the storage of each database. */
const MODULES = ['baseline-server', 'baseline-handler', 'baseline-sqlite', 'baseline-postgres'].map((name) => `bench/servers/${name}`);

/**
 * Writes bench/.compiled/<module>.js for each module, in the folders they have under the root,
 * so that their relative imports (which already name `.js` files) still find each other; they
 * are ES modules, as the package's "type" is "module". Returns the path of the entry.
 */
export function compileBaseline(root: string): string {
  const dir = join(root, 'bench/.compiled');
  for (const name of MODULES) {
    const { outputText } = ts.transpileModule(readFileSync(join(root, `${name}.ts`), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023, esModuleInterop: true },
      fileName: `${name}.ts`,
    });
    const file = join(dir, `${name}.js`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, outputText);
  }
  return join(dir, 'bench/servers/baseline-server.js');
}
