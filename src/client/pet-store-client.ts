// A small typed client of the pet store's HTTP interface, on fetch alone (no dependency):
// it runs in Node ≥ 20, Deno, Bun and browsers.
import { CategoriesClient } from './categories-client.js';
import { type Answer, idempotencyKeyHeader, ifMatchHeader, type PetStoreClientOptions } from './client-core.js';
import { StoreCalls } from './store-calls.js';
import {
  type CallOptions,
  type ChangePetOptions,
  isPet,
  type ListPetsParams,
  type NewPet,
  type Pet,
  type PetPage,
  type PetPatch,
  type PetWithETag,
} from './types.js';

export type { PetStoreClientOptions } from './client-core.js';

/** Options of {@link PetStoreClient.createPet}. */
export interface CreatePetOptions extends CallOptions {
  /**
   * The Idempotency-Key of the creation (1 to 255 printable ASCII characters): every attempt
   * of this call sends it, so the pet is created once however often the call is retried.
   * A random UUID when absent; give your own to make retries across calls (or processes) safe.
   */
  readonly idempotencyKey?: string;
}

/**
 * The pet store's HTTP interface as typed methods: the pets, and (since interface 1.3) the
 * store's orders and inventory, and the categories (`client.categories`). Every failure is a {@link PetStoreError}
 * with the service's code, the HTTP status and the request id. Network errors, timeouts, 408,
 * 429, 5xx and (for a creation) 409 `idempotency_key_in_use` are retried with backoff: reads
 * change nothing, a creation or a placed order carries an Idempotency-Key, and a change or deletion repeated
 * changes nothing more, though its answer may then be a 412 or 404 (see {@link PetStoreError.attempts}).
 *
 * @example
 * const client = new PetStoreClient({ baseUrl: 'http://127.0.0.1:3000/v1', apiKey });
 * const rex = await client.createPet({ name: 'Rex', categoryId: 1 });
 * for await (const pet of client.allPets({ status: 'available' })) console.log(pet.name);
 * const { order, etag } = await client.placeOrder({ petId: rex.id });
 * await client.changeOrder(order.id, 'approved', { ifMatch: etag });
 * const { category } = await client.categories.create('Dogs');
 */
export class PetStoreClient extends StoreCalls {
  /** The categories (since interface 1.3): create, list, get, rename and delete. */
  readonly categories: CategoriesClient;

  constructor(options: PetStoreClientOptions) {
    super(options);
    this.categories = new CategoriesClient(this.calls());
  }

  /** The first page of pets, in ascending id order; follow `next` with {@link nextPage}. */
  async listPets(query: ListPetsParams = {}, options: CallOptions = {}): Promise<PetPage> {
    const url = new URL('pets', this.base);
    if (query.limit !== undefined) url.searchParams.set('limit', String(query.limit));
    if (query.status !== undefined) url.searchParams.set('status', query.status);
    if (query.categoryId !== undefined) url.searchParams.set('categoryId', String(query.categoryId));
    return this.page(url, options);
  }

  /** The page after `page` (its `Link: rel="next"`, followed as it is), or undefined after the last one. */
  async nextPage(page: PetPage, options: CallOptions = {}): Promise<PetPage | undefined> {
    return page.next === undefined ? undefined : this.page(new URL(page.next), options);
  }

  /** Every page of the list, one after the other, following `Link: rel="next"`. */
  async *pages(query: ListPetsParams = {}, options: CallOptions = {}): AsyncGenerator<PetPage, void, undefined> {
    let page: PetPage | undefined = await this.listPets(query, options);
    while (page !== undefined) {
      yield page;
      page = await this.nextPage(page, options);
    }
  }

  /** Every pet of the list, page after page (each fetched when the one before is used up). */
  async *allPets(query: ListPetsParams = {}, options: CallOptions = {}): AsyncGenerator<Pet, void, undefined> {
    for await (const page of this.pages(query, options)) yield* page.pets;
  }

  /** Creates a pet, at most once however often it is retried (see {@link CreatePetOptions.idempotencyKey}). */
  async createPet(newPet: NewPet, options: CreatePetOptions = {}): Promise<Pet> {
    const answer = await this.call(new URL('pets', this.base), options, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...idempotencyKeyHeader(options.idempotencyKey) },
      body: JSON.stringify(newPet),
    });
    return this.expectPet(answer);
  }

  /**
   * One pet by its id.
   * @deprecated The service removes `GET /pets/{petId}` on 2030-12-05: list with a status filter instead.
   */
  async getPet(id: number, options: CallOptions = {}): Promise<Pet> {
    return (await this.getPetWithETag(id, options)).pet;
  }

  /**
   * One pet by its id, with its ETag (for {@link updatePet} and {@link deletePet} with `ifMatch`).
   * @deprecated As {@link getPet}: the service removes `GET /pets/{petId}` on 2030-12-05.
   */
  async getPetWithETag(id: number, options: CallOptions = {}): Promise<PetWithETag> {
    return this.tagged(await this.call(this.petUrl(id), options));
  }

  /** Changes a pet with a JSON merge patch; fails with `invalid_transition` (409) for a status its current one does not lead to. */
  async updatePet(id: number, patch: PetPatch, options: ChangePetOptions = {}): Promise<PetWithETag> {
    return this.tagged(
      await this.call(this.petUrl(id), options, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/merge-patch+json', ...ifMatchHeader(options) },
        body: JSON.stringify(patch),
      }),
    );
  }

  /** Deletes a pet for good; fails with `pet_not_found` (404) when there is none. */
  async deletePet(id: number, options: ChangePetOptions = {}): Promise<void> {
    await this.call(this.petUrl(id), options, { method: 'DELETE', headers: ifMatchHeader(options) });
  }

  private petUrl(id: number): URL {
    return this.resourceUrl('pets', id);
  }

  private tagged(answer: Answer): PetWithETag {
    return { pet: this.expectPet(answer), etag: this.etagOf(answer) };
  }

  private async page(url: URL, options: CallOptions): Promise<PetPage> {
    const { items, next } = await this.listPage(url, options, isPet, 'pet');
    return { pets: items, next };
  }

  private expectPet(answer: Answer): Pet {
    return this.expect(answer, isPet, 'the answer is not a pet');
  }
}
