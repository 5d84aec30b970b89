// What a credential allows: every operation needs exactly one scope, named
// `<resource>:read` or `<resource>:write`. Credentials of interface 1.0 to 1.2 (configured
// keys, keys stored by an earlier release) hold every scope, this release's and later ones'.

/** Every scope an operation can need, in the order the docs list them. */
export const SCOPES = [
  'pets:read',
  'pets:write',
  'categories:read',
  'categories:write',
  'orders:read',
  'orders:write',
  'store:read',
] as const;

/** One scope: the power to read or to change one kind of resource. */
export type Scope = (typeof SCOPES)[number];

/** Every scope: what a 1.x credential holds. */
export const ALL_SCOPES: ReadonlySet<Scope> = new Set(SCOPES);

const KNOWN: ReadonlySet<string> = ALL_SCOPES;

/** Whether `value` names a scope of this release (names are case-sensitive). */
export const isScope = (value: string): value is Scope => KNOWN.has(value);
