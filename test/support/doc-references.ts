// What the docs name in the repository, and whether it is there: the paths written in code spans
// and the targets of relative links, anchors included.
//
// A code span is taken for a path of the repository when it is made of path characters only
// (no space, `:`, `<`, `*`, `…`, `@` at its start: so no URL, command, placeholder, glob or npm
// package) and either
// - starts with a top-level folder of the repository (`src/`, `test/`, `docs/`, `.ci/` …): it
//   must exist from the root;
// - has a folder in it and ends with a file extension of the repository's kinds, or starts with
//   the name of one of its folders (`request/page-cursor.ts`, `adapters/shared`, `commands/`): it
//   is written relative to some folder, so some file or folder must end with it;
// - is a bare file name of the repository's own source kinds (`pet-handlers.ts`,
//   `hostile-input.test.ts`): a file of that name must exist somewhere.
// Names of what is built, installed or made at run time (`dist/…`, `node_modules/…`, `data/…`),
// files a user creates (`pets.db`, `store.ndjson`) and other packages' files (`swagger-ui.css`,
// `package.json` of a dependency) are none of these, so they are not checked.
import { posix } from 'node:path';
import { inTree, type RepositoryTree } from './repository-tree.js';

const PATH_CHARACTERS = /^[\w-][\w.-]*(\/[\w.-]+)*\/?$/;
/** The kinds of the repository's own source files, checked even when named without a folder. */
const SOURCE_FILE = /\.(ts|mts|cts|cjs|mjs|lua|sh)$/;
/** The kinds of files the repository holds, checked when named with a folder. */
const REPOSITORY_FILE = /\.(ts|mts|cts|js|cjs|mjs|json|md|yaml|yml|lua|sh|svg)$/;
const NOT_IN_THE_REPOSITORY = new Set(['dist', 'node_modules', 'data']);

const endsWith = (paths: ReadonlySet<string>, tail: string): boolean =>
  [...paths].some((path) => path === tail || path.endsWith(`/${tail}`));
const hasFolderNamed = (tree: RepositoryTree, name: string): boolean => endsWith(tree.folders, name);

/** Why the code span `span` names a path the repository lacks, or undefined when it names one or no path at all. */
export function codeSpanProblem(span: string, tree: RepositoryTree): string | undefined {
  const written = span.replace(/^\.\//, '').replace(/:\d+(-\d+)?$/, '');
  if (!PATH_CHARACTERS.test(written)) return undefined;
  const path = written.replace(/\/$/, '');
  const segments = path.split('/');
  if (NOT_IN_THE_REPOSITORY.has(segments[0]!) || segments.some((segment) => segment === '.' || segment === '..')) return undefined;
  const isFolder = written.endsWith('/');
  if ((segments.length > 1 || isFolder) && tree.folders.has(segments[0]!)) {
    return inTree(tree, path) ? undefined : `\`${span}\` does not exist`;
  }
  if (segments.length > 1 || isFolder) {
    if (!REPOSITORY_FILE.test(path) && !hasFolderNamed(tree, segments[0]!)) return undefined;
    return endsWith(tree.files, path) || endsWith(tree.folders, path) ? undefined : `\`${span}\`: no file or folder ends with this path`;
  }
  if (!SOURCE_FILE.test(path)) return undefined;
  return endsWith(tree.files, path) ? undefined : `\`${span}\`: no file of this name in the repository`;
}

/** Why the link `target`, written on the page at `page`, leads nowhere, or undefined when it resolves (anchor included). */
export function linkProblem(
  target: string,
  page: string,
  tree: RepositoryTree,
  anchorsOf: (page: string) => ReadonlySet<string>,
): string | undefined {
  if (/^([a-z][a-z\d+.-]*:|\/\/)/i.test(target)) return undefined;
  const [pathPart = '', anchor] = target.split('#', 2) as [string, string | undefined];
  const written = decodeURIComponent(pathPart.replace(/\?.*$/, ''));
  const path =
    written === ''
      ? page
      : posix.normalize(written.startsWith('/') ? written.slice(1) : posix.join(posix.dirname(page), written)).replace(/\/$/, '');
  if (path.startsWith('../') || path === '..') return `link ${target} leaves the repository`;
  if (!inTree(tree, path)) return `link ${target}: ${path} does not exist`;
  if (anchor === undefined || !path.endsWith('.md')) return undefined;
  return anchorsOf(path).has(decodeURIComponent(anchor)) ? undefined : `link ${target}: ${path} has no heading with the anchor #${anchor}`;
}
