// The dependency rule of the hexagon, as dependency-cruiser rules over a source root:
// the domain depends on nothing but itself, fp-ts and io-ts (no adapter, Koa, SQLite, pg,
// inversify, nor Node's own modules: it does no I/O); nothing but the entry points depends on
// the composition root or on the commands; the client depends on nothing but itself (fetch is a
// global), so it runs anywhere fetch does and installs nothing.
import type { IForbiddenRuleType } from 'dependency-cruiser';

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
    to: { path: `^${root}/((container|pet-store|main|migrate|cli|index)\\.ts$|commands/)` },
  },
  {
    name: 'client-depends-only-on-itself',
    severity: 'error',
    from: { path: `^${root}/client/` },
    to: { pathNot: `^${root}/client/` },
  },
];
