// The paths of the repository that README.md and docs/ name, and their relative links with their
// anchors, lead somewhere: a file moved or removed fails here until the docs follow it. What
// counts as a path is in test/support/doc-references.ts.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { codeSpanProblem, linkProblem } from '../support/doc-references.js';
import { anchors, codeSpans, githubSlug, linkTargets, unclosedLinks } from '../support/markdown.js';
import { repositoryTree, type RepositoryTree } from '../support/repository-tree.js';

/** Every broken reference of the page at `page` (text `markdown`), as `page:line: problem`. */
function problemsOf(page: string, markdown: string, tree: RepositoryTree, anchorsOf: (page: string) => ReadonlySet<string>): string[] {
  const spans = codeSpans(markdown).map(({ line, text }) => ({ line, problem: codeSpanProblem(text, tree) }));
  const links = linkTargets(markdown).map(({ line, text }) => ({ line, problem: linkProblem(text, page, tree, anchorsOf) }));
  const unclosed = unclosedLinks(markdown).map(({ line, text }) => ({ line, problem: `link not closed by ")": ${text}` }));
  return [...spans, ...links, ...unclosed]
    .filter(({ problem }) => problem !== undefined)
    .sort((a, b) => a.line - b.line)
    .map(({ line, problem }) => `${page}:${line}: ${problem}`);
}

const pagesOf = (tree: RepositoryTree): string[] =>
  [...tree.files].filter((file) => file === 'README.md' || (file.startsWith('docs/') && file.endsWith('.md'))).sort();

describe('the references of README.md and docs/', () => {
  it('name only paths that exist and link only to pages and anchors that exist', () => {
    const tree = repositoryTree();
    const cache = new Map<string, ReadonlySet<string>>();
    const anchorsOf = (page: string): ReadonlySet<string> => {
      if (!cache.has(page)) cache.set(page, anchors(readFileSync(page, 'utf8')));
      return cache.get(page)!;
    };
    const pages = pagesOf(tree);
    expect(pages).to.include.members(['README.md', 'docs/configuration.md', 'docs/decisions/README.md']);
    expect(pages.flatMap((page) => problemsOf(page, readFileSync(page, 'utf8'), tree, anchorsOf))).to.deep.equal([]);
  });

  it('is checked for real: moved and removed files, dead links and anchors are found, what is no path is not', () => {
    const files = [
      'README.md',
      'docs/errors.md',
      'docs/decisions/0003-lock.md',
      'src/adapters/http/errors/error-catalogue.ts',
      'src/adapters/http/handlers/pet-handlers.ts',
      'src/adapters/postgres/postgres-pet-repository.ts',
      'test/http/hostile-input.test.ts',
    ];
    const foldersOf = (file: string): string[] =>
      file
        .split('/')
        .slice(0, -1)
        .map((_, i, segments) => segments.slice(0, i + 1).join('/'));
    const tree: RepositoryTree = { files: new Set(files), folders: new Set(files.flatMap(foldersOf)) };
    const page = [
      '# Errors',
      '## Codes and `status`',
      'The catalogue: `src/adapters/http/error-catalogue.ts`, now `errors/error-catalogue.ts`.',
      'The lock: `insert-order-lock.ts`, in `adapters/postgres/insert-order-lock.ts`; the handlers: `pet-handlers.ts`,',
      'tested by `hostile-input.test.ts`; `adapters/http` and `src/` are folders.',
      'Not paths: `https://app.example/v1`, `./data/petstore.db`, `store.db`, `@koa/router`, `100/60`,',
      '`application/json`, `dist/main.js`, `events.nats.url`, `GET /v1/pets`, `src/adapters/<name>`.',
      '[ok](decisions/0003-lock.md) [gone](decisions/0004-gone.md) [here](#codes-and-status) [nowhere](#codes)',
      '[up](../README.md#readme) [out](../../elsewhere.md) [web](https://example.org/x.md)',
      '| a cell with [a cut link](errors.md | the next cell |',
      '```sh',
      'cat `src/not-checked-in-a-fence.ts`',
      '```',
    ].join('\n');
    const anchorsOf = (path: string): ReadonlySet<string> => (path === 'docs/errors.md' ? anchors(page) : new Set(['readme']));
    expect(problemsOf('docs/errors.md', page, tree, anchorsOf)).to.deep.equal([
      'docs/errors.md:3: `src/adapters/http/error-catalogue.ts` does not exist',
      'docs/errors.md:4: `insert-order-lock.ts`: no file of this name in the repository',
      'docs/errors.md:4: `adapters/postgres/insert-order-lock.ts`: no file or folder ends with this path',
      'docs/errors.md:8: link decisions/0004-gone.md: docs/decisions/0004-gone.md does not exist',
      'docs/errors.md:8: link #codes: docs/errors.md has no heading with the anchor #codes',
      'docs/errors.md:9: link ../../elsewhere.md leaves the repository',
      'docs/errors.md:10: link not closed by ")": ](errors.md | the next cell |',
    ]);
  });

  it('computes anchors as GitHub does', () => {
    expect(githubSlug('PETSTORE_REDIS_URL and PETSTORE_REDIS_PREFIX')).to.equal('petstore_redis_url-and-petstore_redis_prefix');
    expect(githubSlug('Stored API keys: `petstore keys`')).to.equal('stored-api-keys-petstore-keys');
    expect(githubSlug('Errors of the deprecated GET /pets/{petId}')).to.equal('errors-of-the-deprecated-get-petspetid');
    expect(githubSlug('405 and Allow, OPTIONS')).to.equal('405-and-allow-options');
    expect([...anchors('# Logs\n## Logs\n```\n# not a heading\n```\n## Logs')]).to.deep.equal(['logs', 'logs-1', 'logs-2']);
  });
});
