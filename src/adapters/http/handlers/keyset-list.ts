// What the list operations (pets, orders, categories) answer alike, set up once per list: the
// query decoded (a 400 naming every problem, a cursor sent with other filters than it was
// issued for included: parameters.ts), the page the use case answers for it, and the Link to
// the next page.
import * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import type { Context } from 'koa';
import type { DomainError } from '../../../domain/index.js';
import { queryParameters } from '../request/query-parameters.js';
import { requestPath } from '../request/request-path.js';
import { decodedInput, respond } from '../response/respond.js';

/** A list of the interface, as its handler answers it. */
export interface ListKind<Q, R extends object, P, T> {
  /** The codec of the query string. */
  readonly query: t.Decoder<unknown, Q>;
  /** The use case's request for a decoded query: its limit (the default when none), the filters given, and `afterId`, where it resumes. */
  readonly requestOf: (query: Q) => R;
  /** The items of a page. */
  readonly itemsOf: (page: P) => readonly T[];
  /** The cursor of the page after `last`, within the request's filters. */
  readonly cursorAfter: (request: R, last: T) => string;
}

/** The request's limit and filters as query parameters, in its order, each followed by `&`: all but where it resumes. */
function pageParameters(request: object): string {
  let parameters = '';
  for (const [name, value] of Object.entries(request)) if (name !== 'afterId') parameters += `${name}=${String(value)}&`;
  return parameters;
}

/** The answers of one list. */
export class KeysetList<Q, R extends object, P extends { readonly hasMore: boolean }, T> {
  constructor(private readonly kind: ListKind<Q, R, P, T>) {}

  /**
   * GET: the items of the page `list` answers for the query, with `Link: rel="next"` when more
   * follow: this path with the request's limit and filters, then the cursor after the last item.
   */
  async answer(ctx: Context, list: (request: R) => Promise<E.Either<DomainError, P>>): Promise<void> {
    const query = decodedInput(ctx, 'query', this.kind.query, queryParameters(ctx.request.querystring));
    if (query === undefined) return;
    const request = this.kind.requestOf(query);
    const page = await list(request);
    if (E.isRight(page) && page.right.hasMore) {
      const items = this.kind.itemsOf(page.right);
      const cursor = this.kind.cursorAfter(request, items[items.length - 1]!);
      ctx.response.set('Link', `<${requestPath(ctx)}?${pageParameters(request)}cursor=${cursor}>; rel="next"`);
    }
    respond(ctx, E.map(this.kind.itemsOf)(page), 200);
  }
}
