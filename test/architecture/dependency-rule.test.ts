import { expect } from 'chai';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import { dependencyRules } from './dependency-rules.js';

const FIXTURE_ROOT = 'test/architecture/fixtures/src';

async function violations(root: string): Promise<Array<{ from: string; to: string; rule: string }>> {
  const { output } = await cruise([root], {
    ruleSet: { forbidden: dependencyRules(root) },
    validate: true,
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
  });
  return (output as ICruiseResult).summary.violations.map((v) => ({ from: v.from, to: v.to, rule: v.rule.name }));
}

describe('the dependency rule', () => {
  it('holds for src: the domain imports only itself, fp-ts and io-ts; adapters never import the composition root, its configuration or one another; commands no adapter; the client only itself; no cycles', async () => {
    expect(await violations('src')).to.deep.equal([]);
  });

  it('catches a domain file that imports an adapter, Koa, SQLite, pg, inversify or node:fs', async () => {
    const found = await violations(FIXTURE_ROOT);
    const targets = found.filter((v) => v.from.endsWith('domain/impure.ts')).map((v) => v.to);
    for (const forbidden of ['koa', 'better-sqlite3', 'inversify', 'pg', 'fs', 'adapters/http/app.ts']) {
      expect(
        targets.some((to) => to.includes(forbidden)),
        `import of ${forbidden} is caught`,
      ).to.equal(true);
    }
    expect(
      targets.some((to) => /fp-ts|io-ts|pure\.ts/.test(to)),
      'allowed imports are not flagged',
    ).to.equal(false);
  });

  it('catches a client file that imports anything but the client: Koa, node:fs, fp-ts, the domain', async () => {
    const found = await violations(FIXTURE_ROOT);
    const targets = found.filter((v) => v.from.endsWith('client/impure-client.ts')).map((v) => v.to);
    for (const forbidden of ['koa', 'fs', 'fp-ts', 'domain/pure.ts']) {
      expect(
        targets.some((to) => to.includes(forbidden)),
        `import of ${forbidden} is caught`,
      ).to.equal(true);
    }
    expect(
      targets.some((to) => to.includes('client/helper.ts')),
      'the client may import itself',
    ).to.equal(false);
  });

  it('catches an adapter that imports another adapter or the configuration, but not its own folder, adapters/shared or the domain', async () => {
    const found = await violations(FIXTURE_ROOT);
    const caught = found.filter((v) => v.from.endsWith('adapters/sqlite/reaches-into-http.ts'));
    expect(caught.filter((v) => v.rule === 'adapters-do-not-depend-on-other-adapters').map((v) => v.to)).to.deep.equal([
      `${FIXTURE_ROOT}/adapters/http/app.ts`,
    ]);
    expect(caught.filter((v) => v.rule === 'adapters-do-not-depend-on-the-composition-root').map((v) => v.to)).to.deep.equal([
      `${FIXTURE_ROOT}/config/settings.ts`,
    ]);
    expect(
      caught.some((v) => /table\.ts|pure\.ts|mechanism\.ts/.test(v.to)),
      'its own folder, adapters/shared and the domain are allowed',
    ).to.equal(false);
    const fromShared = found.filter((v) => v.from.endsWith('adapters/shared/reaches-into-http.ts'));
    expect(
      fromShared.map((v) => [v.rule, v.to]),
      'a shared mechanism may not import an adapter',
    ).to.deep.equal([['adapters-do-not-depend-on-other-adapters', `${FIXTURE_ROOT}/adapters/http/app.ts`]]);
  });

  it('catches a module that imports the package by its own name, which reaches the build around every rule', async () => {
    const found = await violations(FIXTURE_ROOT);
    const caught = found.filter((v) => v.from.endsWith('adapters/sqlite/imports-the-package.ts'));
    expect(caught.map((v) => v.rule)).to.deep.equal(['no-module-imports-the-package-itself']);
  });

  it('catches an adapter that reaches around its parameters into the composition root', async () => {
    const found = await violations(FIXTURE_ROOT);
    const caught = found.filter((v) => v.from.endsWith('adapters/http/reaches-into-composition.ts'));
    expect(caught.map((v) => [v.rule, v.to])).to.deep.equal([
      ['adapters-do-not-depend-on-the-composition-root', `${FIXTURE_ROOT}/composition/container.ts`],
    ]);
  });

  it('catches a command that opens an adapter itself, but not its use of the composition root or the configuration', async () => {
    const found = await violations(FIXTURE_ROOT);
    const caught = found.filter((v) => v.from.endsWith('commands/opens-a-database.ts'));
    expect(caught.map((v) => [v.rule, v.to])).to.deep.equal([
      ['commands-get-adapters-from-the-container', `${FIXTURE_ROOT}/adapters/sqlite/table.ts`],
    ]);
  });

  it('catches a composition surface that hands the commands an adapter, but not its own modules', async () => {
    const found = await violations(FIXTURE_ROOT);
    const caught = found.filter((v) => v.from.endsWith('composition/index.ts'));
    expect(caught.map((v) => [v.rule, v.to])).to.deep.equal([
      ['the-composition-surface-hands-out-no-adapter', `${FIXTURE_ROOT}/adapters/sqlite/table.ts`],
    ]);
  });

  it('catches an export format that does I/O or imports an adapter, but not its use of the domain', async () => {
    const found = await violations(FIXTURE_ROOT);
    const caught = found.filter((v) => v.from.endsWith('export-format/format.ts'));
    expect(caught.map((v) => v.rule)).to.deep.equal([
      'export-format-depends-only-on-the-domain',
      'export-format-depends-only-on-the-domain',
    ]);
    expect(caught.map((v) => v.to).sort()).to.deep.equal([`${FIXTURE_ROOT}/adapters/sqlite/table.ts`, 'fs'].sort());
  });

  it('catches modules that import each other', async () => {
    const found = await violations(FIXTURE_ROOT);
    const cycles = found.filter((v) => v.rule === 'no-circular').map((v) => v.from);
    expect(cycles.some((from) => from.endsWith('adapters/memory/cycle-a.ts') || from.endsWith('adapters/memory/cycle-b.ts'))).to.equal(
      true,
    );
    expect(
      cycles.every((from) => from.includes('adapters/memory/cycle-')),
      'no other fixture is in a cycle',
    ).to.equal(true);
  });
});
