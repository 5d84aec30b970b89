// The dependency rule of the hexagon, as dependency-cruiser rules over a source root:
// the domain depends on nothing but itself, fp-ts and io-ts (no adapter, Koa, SQLite, pg,
// inversify, nor Node's own modules: it does no I/O); an adapter depends on no other adapter
// (what two adapters share is a contract of the domain, joined by the composition root), only
// on the mechanisms of `adapters/shared`, which depend on no adapter;
// nothing but the entry points depends on the composition root, its configuration or the
// commands; the client depends on nothing but itself (fetch is a global), so it runs anywhere
// fetch does and installs nothing; and no module depends on itself through others.
import type { IForbiddenRuleType } from 'dependency-cruiser';

// The composition root and what only it reads: the wiring, the configuration, the entry points.
const COMPOSITION_ROOT =
  '(container|container-options|port-bindings|rate-limit-store-binding|tokens|pet-store|config|database-config|redis-config|without-password|main|migrate|cli|index)\\.ts$|commands/';

export const dependencyRules = (root: string): IForbiddenRuleType[] => [
  {
    name: 'domain-depends-only-on-itself-fp-ts-io-ts',
    severity: 'error',
    from: { path: `^${root}/domain/` },
    to: { pathNot: `^${root}/domain/|(^|/)node_modules/(fp-ts|io-ts)/` },
  },
  {
    name: 'nothing-depends-on-the-composition-root-but-entry-points',
    severity: 'error',
    from: { path: `^${root}/(domain|adapters)/` },
    to: { path: `^${root}/(${COMPOSITION_ROOT})` },
  },
  {
    name: 'adapters-do-not-depend-on-other-adapters',
    severity: 'error',
    from: { path: `^${root}/adapters/([^/]+)/` },
    to: { path: `^${root}/adapters/`, pathNot: `^${root}/adapters/($1|shared)/` },
  },
  {
    name: 'client-depends-only-on-itself',
    severity: 'error',
    from: { path: `^${root}/client/` },
    to: { pathNot: `^${root}/client/` },
  },
  {
    name: 'no-circular',
    severity: 'error',
    from: { path: `^${root}/` },
    to: { circular: true },
  },
];
