// The dependency rule of the hexagon, as dependency-cruiser rules over a source root:
// - the domain depends on nothing but itself, fp-ts and io-ts (no adapter, Koa, SQLite, pg,
//   inversify, nor Node's own modules: it does no I/O);
// - an adapter depends on no other adapter (what two adapters share is a contract of the
//   domain, joined by the composition root), only on the mechanisms of `adapters/shared`,
//   which depend on no adapter; and never on the composition root, the configuration, the
//   commands or the entry points: what it needs (a logger, settings) it is given;
// - the configuration reads the environment into values and knows no adapter nor the root;
// - a command gets its adapters from the container: it imports the composition root, the
//   configuration, the export format and the domain, never an adapter; only the entry points
//   import commands; and the composition root's surface for them (composition/index.ts)
//   re-exports no adapter's symbol, so that rule holds by what it imports, not only by path;
// - the export format (export-format/) is codecs over the domain: it imports the domain, fp-ts
//   and io-ts alone;
// - the client depends on nothing but itself (fetch is a global), so it runs anywhere fetch
//   does and installs nothing; no module depends on itself through others; and none imports
//   the package by its own name, which would reach the build and so around every rule.
import type { IForbiddenRuleType } from 'dependency-cruiser';

/** The files at the root of the source tree: the entry points and the public surface. */
const ENTRY_POINTS = '[^/]+\\.ts$';

export const dependencyRules = (root: string): IForbiddenRuleType[] => [
  {
    name: 'domain-depends-only-on-itself-fp-ts-io-ts',
    severity: 'error',
    from: { path: `^${root}/domain/` },
    to: { pathNot: `^${root}/domain/|(^|/)node_modules/(fp-ts|io-ts)/` },
  },
  {
    name: 'adapters-do-not-depend-on-the-composition-root',
    severity: 'error',
    from: { path: `^${root}/adapters/` },
    to: { path: `^${root}/(composition/|config/|commands/|${ENTRY_POINTS})` },
  },
  {
    name: 'adapters-do-not-depend-on-other-adapters',
    severity: 'error',
    from: { path: `^${root}/adapters/([^/]+)/` },
    to: { path: `^${root}/adapters/`, pathNot: `^${root}/adapters/($1|shared)/` },
  },
  {
    name: 'configuration-knows-no-adapter-nor-the-root',
    severity: 'error',
    from: { path: `^${root}/config/` },
    to: { path: `^${root}/(adapters/|composition/|commands/|${ENTRY_POINTS})` },
  },
  {
    name: 'commands-get-adapters-from-the-container',
    severity: 'error',
    from: { path: `^${root}/commands/` },
    to: { path: `^${root}/(adapters/|${ENTRY_POINTS})` },
  },
  {
    name: 'the-composition-surface-hands-out-no-adapter',
    severity: 'error',
    from: { path: `^${root}/composition/index\\.ts$` },
    to: { path: `^${root}/adapters/` },
  },
  {
    name: 'export-format-depends-only-on-the-domain',
    severity: 'error',
    from: { path: `^${root}/export-format/` },
    to: { pathNot: `^${root}/(export-format|domain)/|(^|/)node_modules/(fp-ts|io-ts)/` },
  },
  {
    name: 'only-entry-points-run-commands',
    severity: 'error',
    from: { path: `^${root}/(domain|adapters|composition|config|client|export-format)/` },
    to: { path: `^${root}/commands/` },
  },
  {
    name: 'client-depends-only-on-itself',
    severity: 'error',
    from: { path: `^${root}/client/` },
    to: { pathNot: `^${root}/client/` },
  },
  {
    // The package's own name resolves to its compiled build (dist/), around every rule above.
    name: 'no-module-imports-the-package-itself',
    severity: 'error',
    from: { path: `^${root}/` },
    to: { path: '^(dist/|petstore-hexagon($|/))' },
  },
  {
    name: 'no-circular',
    severity: 'error',
    from: { path: `^${root}/` },
    to: { circular: true },
  },
];
