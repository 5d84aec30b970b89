// Measures the files of a source tree and every function in them, by lines, with the TypeScript
// compiler's parser: what counts as a function is what the compiler calls one.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

export interface Measured {
  readonly file: string;
  readonly name: string;
  readonly line: number;
  readonly lines: number;
}

function sourceFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts'))
    .map((path) => join(root, path))
    .sort();
}

function functionName(node: ts.Node): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isAccessor(node)) && node.name) {
    return node.name.getText();
  }
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))) {
    return parent.name.getText();
  }
  return '(anonymous)';
}

function isFunction(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isAccessor(node)
  );
}

/** Every function of every .ts file below `root`, with its length from its first line to its last. */
export function measureFunctions(root: string): Measured[] {
  const measured: Measured[] = [];
  for (const file of sourceFiles(root)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (isFunction(node) && node.body) {
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        measured.push({ file, name: functionName(node), line: first + 1, lines: last - first + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return measured.sort((a, b) => b.lines - a.lines);
}

/** Every .ts file below `root`, with its number of lines. */
export function measureFiles(root: string): Measured[] {
  return sourceFiles(root)
    .map((file) => ({ file, name: file, line: 1, lines: readFileSync(file, 'utf8').replace(/\n$/, '').split('\n').length }))
    .sort((a, b) => b.lines - a.lines);
}
