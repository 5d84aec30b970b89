// One page of a keyset list (pets, orders, categories): at most `limit` items in ascending id
// order, after a given id, read with one item more than the page holds.
import * as E from 'fp-ts/lib/Either.js';
import type { TaskEither } from 'fp-ts/lib/TaskEither.js';
import type { Limit } from '../page.js';

/** Which page of a list to read: its size, and where to resume. */
export interface PageRequest<I> {
  readonly limit: Limit;
  /** Resume strictly after this id (the last one of the previous page). */
  readonly afterId?: I;
}

/** A page of at most `limit` of `found`, read with one more than the page holds: that one tells, without counting, whether another page follows. */
export const pageOf = <T>(found: readonly T[], limit: number): { readonly items: readonly T[]; readonly hasMore: boolean } =>
  found.length > limit ? { items: found.slice(0, limit), hasMore: true } : { items: found, hasMore: false };

/** A page of a list whose items it holds under `key` (`pets`, `orders`, `categories`), and whether more follow it. */
export type ListedPage<K extends string, T> = { readonly [P in K]: readonly T[] } & { readonly hasMore: boolean };

/** The use case that lists the pages of `list` (a repository's keyset read), its items under `key`: it cannot fail in the domain. */
export const listPages =
  <K extends string, R extends PageRequest<unknown>, T>(key: K, list: (query: R) => Promise<readonly T[]>) =>
  (request: R): TaskEither<never, ListedPage<K, T>> =>
  async () => {
    const { items, hasMore } = pageOf(await list({ ...request, limit: request.limit + 1 }), request.limit);
    return E.right({ [key]: items, hasMore } as ListedPage<K, T>);
  };
