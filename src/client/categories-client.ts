// The categories of the typed client (interface 1.3): `client.categories`, on the client's own
// calls (its credential, retries and timeouts).
import { type Answer, type ClientCalls, ifMatchHeader } from './client-core.js';
import {
  type CallOptions,
  type CategoryPage,
  type CategoryWithETag,
  type ChangePetOptions,
  isCategory,
  type ListCategoriesParams,
} from './types.js';

/**
 * Create, list, get, rename and delete categories. A creation has no Idempotency-Key: when its
 * first attempt was stored but its answer lost, the retry fails with `category_name_taken`
 * (409) and `attempts` above 1 on the error; list the categories before deciding again.
 */
export class CategoriesClient {
  constructor(private readonly calls: ClientCalls) {}

  /** Creates a category; fails with `category_name_taken` (409) for a name another one has, whatever its case. */
  async create(name: string, options: CallOptions = {}): Promise<CategoryWithETag> {
    return this.tagged(
      await this.calls.call(this.calls.url('categories'), options, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name }),
      }),
    );
  }

  /** The first page of categories, in ascending id order; follow `next` with {@link nextPage}. */
  async list(query: ListCategoriesParams = {}, options: CallOptions = {}): Promise<CategoryPage> {
    const url = this.calls.url('categories');
    if (query.limit !== undefined) url.searchParams.set('limit', String(query.limit));
    return this.page(url, options);
  }

  /** The page after `page`, or undefined after the last one. */
  async nextPage(page: CategoryPage, options: CallOptions = {}): Promise<CategoryPage | undefined> {
    return page.next === undefined ? undefined : this.page(new URL(page.next), options);
  }

  /** Every category, page after page. */
  async *all(query: ListCategoriesParams = {}, options: CallOptions = {}): AsyncGenerator<CategoryPage['categories'][number]> {
    let page: CategoryPage | undefined = await this.list(query, options);
    while (page !== undefined) {
      yield* page.categories;
      page = await this.nextPage(page, options);
    }
  }

  /** One category by its id, with its ETag; fails with `category_not_found` (404) when there is none. */
  async get(id: number, options: CallOptions = {}): Promise<CategoryWithETag> {
    return this.tagged(await this.calls.call(this.calls.resourceUrl('categories', id), options));
  }

  /** Renames a category (a merge patch); `ifMatch` makes it only on the version read. */
  async rename(id: number, name: string, options: ChangePetOptions = {}): Promise<CategoryWithETag> {
    return this.tagged(
      await this.calls.call(this.calls.resourceUrl('categories', id), options, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/merge-patch+json', ...ifMatchHeader(options) },
        body: JSON.stringify({ name }),
      }),
    );
  }

  /** Deletes a category; fails with `category_in_use` (409) while a pet is in it. */
  async delete(id: number, options: ChangePetOptions = {}): Promise<void> {
    await this.calls.call(this.calls.resourceUrl('categories', id), options, { method: 'DELETE', headers: ifMatchHeader(options) });
  }

  private tagged(answer: Answer): CategoryWithETag {
    return { category: this.calls.expect(answer, isCategory, 'the answer is not a category'), etag: this.calls.etagOf(answer) };
  }

  private async page(url: URL, options: CallOptions): Promise<CategoryPage> {
    const { items: categories, next } = await this.calls.listPage(url, options, isCategory, 'category');
    return { categories, next };
  }
}
