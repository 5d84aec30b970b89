// The names a TypeScript tree uses in its code, comments left out: what the docs checks compare
// with the names the docs give (the environment variables a process reads, say).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const sourceFiles = (folder: string): string[] =>
  readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(folder, file));

/** The literal text every match of `name` begins with (`PETSTORE_`), so that files without it are not parsed. */
const prefixOf = (name: RegExp): string => /^[\w]*/.exec(name.source)![0];

/**
 * Every identifier (`env.PETSTORE_DB`, a codec's key `PETSTORE_DB:`) and every whole string
 * literal (`process.env['PETSTORE_DB']`) of the TypeScript files under `folder` that `name`
 * matches entirely. A name in a comment, or inside a longer text such as a message, is not a use.
 */
export function namesUsed(folder: string, name: RegExp): Set<string> {
  const whole = new RegExp(`^(?:${name.source})$`);
  const found = new Set<string>();
  for (const file of sourceFiles(folder)) {
    const text = readFileSync(file, 'utf8');
    if (!text.includes(prefixOf(name))) continue;
    const visit = (node: ts.Node): void => {
      if ((ts.isIdentifier(node) || ts.isStringLiteralLike(node)) && whole.test(node.text)) found.add(node.text);
      ts.forEachChild(node, visit);
    };
    visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false));
  }
  return found;
}

/** Every whole match of `name` in `text`, once each. */
export const namesIn = (text: string, name: RegExp): Set<string> =>
  new Set([...text.matchAll(new RegExp(`\\b(?:${name.source})\\b`, 'g'))].map((match) => match[0]));
