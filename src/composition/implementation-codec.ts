// Options that are objects of the caller's (a port's adapter, a logger, a Redis client): checked
// at the edge for the members the service calls, so that a wrong one is refused with a
// TypeError naming it, rather than met later inside a request as a 500.
import * as t from 'io-ts';

/** The names of the members of `A` that are functions. */
type MethodsOf<A> = { [K in keyof A]-?: A[K] extends (...args: never[]) => unknown ? K : never }[keyof A] & string;

/** A codec of the values that `accepts`, taken as they are, refusing others with `must be <description>`. */
const taken = <A>(name: string, accepts: (u: unknown) => boolean, description: string): t.Type<A, A, unknown> =>
  new t.Type<A, A, unknown>(
    name,
    (u): u is A => accepts(u),
    (u, c) => (accepts(u) ? t.success(u as A) : t.failure(u, c, `must be ${description}`)),
    (a) => a,
  );

/** A codec of objects with every method in `methods` (for a port: every method it declares). */
export const implementing = <A>(name: string, methods: readonly MethodsOf<A>[], description: string): t.Type<A, A, unknown> =>
  taken<A>(
    name,
    (u) => typeof u === 'object' && u !== null && methods.every((m) => typeof (u as Record<string, unknown>)[m] === 'function'),
    description,
  );

/** A codec of functions. */
export const aFunction = <A extends (...args: never[]) => unknown>(name: string, description: string): t.Type<A, A, unknown> =>
  taken<A>(name, (u) => typeof u === 'function', description);
