// The resources as they travel over HTTP (docs/openapi.yaml): plain JSON values, no brands.

/** The availability of a pet. */
export type PetStatus = 'available' | 'pending' | 'sold';

/** What to send to create a pet: `status` defaults to `available`. */
export interface NewPet {
  readonly name: string;
  readonly categoryId: number;
  readonly status?: PetStatus;
}

/** A pet as the service returns it. */
export interface Pet {
  readonly id: number;
  readonly name: string;
  readonly categoryId: number;
  readonly status: PetStatus;
}

/** A pet and its ETag: the version of the pet the answer carried, for `ifMatch` (since interface 1.1). */
export interface PetWithETag {
  readonly pet: Pet;
  /** The strong entity-tag of the answer, such as `"5-2"`: send it as `ifMatch` to change the pet only as it was read. */
  readonly etag: string;
}

/** A JSON merge patch of a pet: each field sent replaces the pet's (since interface 1.1). */
export interface PetPatch {
  readonly name?: string;
  readonly categoryId?: number;
  readonly status?: PetStatus;
}

/** Options of a change or deletion of a pet. */
export interface ChangePetOptions extends CallOptions {
  /**
   * An ETag from an earlier answer (or `*`): the change is made only if the pet is still in
   * that version, else the call fails with `precondition_failed` (412). Without it the last
   * change wins. A retried attempt whose first one got through answers 412 (or 404 for a
   * deletion), with `attempts` above 1 on the error: check the pet before deciding again.
   */
  readonly ifMatch?: string;
}

/** One page of the pet list. */
export interface PetPage {
  readonly pets: readonly Pet[];
  /** The URL of the next page, from `Link: <…>; rel="next"`; undefined on the last page. */
  readonly next: string | undefined;
}

/** Which pets to list. */
export interface ListPetsParams {
  /** Pets per page, 1 to 100 (the service's default: 20). */
  readonly limit?: number;
  /** Only pets with this status. */
  readonly status?: PetStatus;
  /** Only pets of this category, alone or with `status` (since interface 1.3). */
  readonly categoryId?: number;
}

/** Per-call options of every client method. */
export interface CallOptions {
  /** Cancels the call, retries included; the promise then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Sent as X-Request-Id (1 to 128 of `A-Z a-z 0-9 . _ : -`); a random UUID when absent. */
  readonly requestId?: string;
}

const STATUSES: readonly string[] = ['available', 'pending', 'sold'];

/** Whether a decoded JSON value is an object, whose fields a shape check then reads. */
export const isJsonObject = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === 'object' && value !== null;

/** Whether a decoded JSON value has the shape of a Pet. */
export const isPet = (value: unknown): value is Pet =>
  isJsonObject(value) &&
  Number.isSafeInteger(value['id']) &&
  typeof value['name'] === 'string' &&
  Number.isSafeInteger(value['categoryId']) &&
  STATUSES.includes(value['status'] as string);

/** A category as the service returns it (since interface 1.3). */
export interface Category {
  readonly id: number;
  readonly name: string;
}

/** A category and its ETag, for `ifMatch` of a rename or a deletion. */
export interface CategoryWithETag {
  readonly category: Category;
  readonly etag: string;
}

/** One page of the category list. */
export interface CategoryPage {
  readonly categories: readonly Category[];
  /** The URL of the next page, from `Link: <…>; rel="next"`; undefined on the last page. */
  readonly next: string | undefined;
}

/** Which categories to list. */
export interface ListCategoriesParams {
  /** Categories per page, 1 to 100 (the service's default: 20). */
  readonly limit?: number;
}

/** Whether a decoded JSON value has the shape of a Category. */
export const isCategory = (value: unknown): value is Category =>
  isJsonObject(value) && Number.isSafeInteger(value['id']) && typeof value['name'] === 'string';
