// Fetching one stored resource by its id, as pets, orders and categories are fetched.
import * as E from 'fp-ts/lib/Either.js';
import type { Option } from 'fp-ts/lib/Option.js';
import type { TaskEither } from 'fp-ts/lib/TaskEither.js';

/** The use case that answers what `find` finds for an id, or the failure `notFound` makes of the id. */
export const fetchById =
  <I, V, N>(find: (id: I) => Promise<Option<V>>, notFound: (id: I) => N) =>
  (id: I): TaskEither<N, V> =>
  () =>
    find(id).then(E.fromOption(() => notFound(id)));
