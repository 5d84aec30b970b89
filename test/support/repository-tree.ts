// The files and folders of the repository as a checkout holds them, found by walking the disk
// (the docs checks run outside a git checkout too), relative to its root with `/` separators.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The repository's files and folders, as paths from its root: `src/cli.ts`, `src/adapters`. */
export interface RepositoryTree {
  readonly files: ReadonlySet<string>;
  readonly folders: ReadonlySet<string>;
}

// What .gitignore keeps out: installed, built or generated, so never a path the docs may name.
// Of the bench's results, git keeps latest.json and the run histories (*-history.tsv) alone.
const NOT_KEPT = new Set(['.git', 'node_modules', 'dist', 'data', 'coverage', '.tmp', 'bench/.compiled']);
const isKeptBenchResult = (path: string): boolean =>
  path === 'bench/results/latest.json' || /^bench\/results\/[^/]+-history\.tsv$/.test(path);

/** The tree under `root` (the current folder, which mocha runs in: the repository's root). */
export function repositoryTree(root = '.'): RepositoryTree {
  const files = new Set<string>();
  const folders = new Set<string>();
  const walk = (folder: string): void => {
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
      const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (NOT_KEPT.has(path)) continue;
      if (entry.isDirectory()) {
        folders.add(path);
        walk(path);
      } else if (!path.startsWith('bench/results/') || isKeptBenchResult(path)) {
        files.add(path);
      }
    }
  };
  walk('');
  return { files, folders };
}

/** Whether `path` (no trailing `/`) is a file or a folder of the tree. */
export const inTree = (tree: RepositoryTree, path: string): boolean => tree.files.has(path) || tree.folders.has(path);
