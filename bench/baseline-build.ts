// The baseline runs as plain JavaScript on plain node, with no loader thread beside it:
// its TypeScript is only stripped of types (transpileModule), next to node_modules.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** Writes bench/.compiled/baseline-server.mjs from bench/baseline-server.ts; returns its path. */
export function compileBaseline(root: string): string {
  const source = readFileSync(join(root, 'bench/baseline-server.ts'), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023, esModuleInterop: true },
    fileName: 'baseline-server.ts',
  });
  const dir = join(root, 'bench/.compiled');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'baseline-server.mjs');
  writeFileSync(path, outputText);
  return path;
}
