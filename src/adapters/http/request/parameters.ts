// io-ts codecs for the query and path parameters: the edge turns their text into domain values.
import * as t from 'io-ts';
import { exactObject } from '../../../domain/codec.js';
import { CategoryId, Limit, OrderStatus, PetId, PetStatus } from '../../../domain/index.js';
import { OrderCursorFromText } from './order-cursor.js';
import { CategoryCursorFromText, CursorFromText } from './page-cursor.js';

/** Why a parameter sent more than once is refused: the service does not guess which one was meant. */
export const GIVEN_ONCE = 'must be given only once';

/** A query parameter given once; `?a=1&a=2` is refused rather than guessed at. */
const once = <A>(codec: t.Type<A, unknown, unknown>): t.Type<A, unknown, unknown> =>
  new t.Type<A, unknown, unknown>(
    codec.name,
    codec.is,
    (u, c) => (Array.isArray(u) ? t.failure(u, c, GIVEN_ONCE) : codec.validate(u, c)),
    codec.encode,
  );

const DECIMAL = /^[+-]?[0-9]+$/;

/** Decimal text to a number, or NaN when the text is not a whole decimal number. */
const decimal = (text: string): number => (DECIMAL.test(text) ? Number(text) : Number.NaN);

/** A number of the domain (`codec`) as it comes in the query string: its decimal digits. */
const fromDecimalText = <A extends number>(codec: t.Type<A, unknown, unknown>): t.Type<A, unknown, unknown> =>
  new t.Type<A, unknown, unknown>(
    codec.name,
    codec.is,
    (u, c) => codec.validate(typeof u === 'string' ? decimal(u) : Number.NaN, c),
    String,
  );

/** `limit` as it comes in the query string: decimal digits, within the domain's page limit. */
const LimitFromText = fromDecimalText(Limit);

/** `categoryId` as it comes in the query string: decimal digits, within the domain's CategoryId. */
const CategoryIdFromText = fromDecimalText(CategoryId);

/** The query of GET /pets. Unknown parameters are ignored, as caches and proxies add their own. */
export const ListPetsQuery = exactObject(
  'ListPetsQuery',
  {},
  { limit: once(LimitFromText), status: once(PetStatus), categoryId: once(CategoryIdFromText), cursor: once(CursorFromText) },
  'ignore',
);

/** The query of GET /categories. */
export const ListCategoriesQuery = exactObject(
  'ListCategoriesQuery',
  {},
  { limit: once(LimitFromText), cursor: once(CategoryCursorFromText) },
  'ignore',
);

const INT64_MAX = 2n ** 63n - 1n;

/**
 * `petId` as it comes in the path: a positive int64 in decimal digits. Decoded as a bigint,
 * because a valid int64 beyond 2^53−1 is still a well-formed id (one no pet has).
 */
export const PetIdFromPath = new t.Type<bigint, string, unknown>(
  'PetIdFromPath',
  (u): u is bigint => typeof u === 'bigint' && u >= 1n && u <= INT64_MAX,
  (u, c) => {
    const id = typeof u === 'string' && /^[0-9]{1,25}$/.test(u) ? BigInt(u) : 0n;
    return id >= 1n && id <= INT64_MAX ? t.success(id) : t.failure(u, c, 'must be a positive integer (int64)');
  },
  String,
);

/** The path parameters of GET /pets/{petId}. */
export const PetPathParams = exactObject('PetPathParams', { petId: PetIdFromPath }, {}, 'ignore');

/** The path parameters of /orders/{orderId}: an id as a pet's is. */
export const OrderPathParams = exactObject('OrderPathParams', { orderId: PetIdFromPath }, {}, 'ignore');

/** `petId` as it comes in the query string: decimal digits of a positive id that JSON carries exactly. */
const PetIdFromText = fromDecimalText(PetId);

/** The query of GET /orders. Unknown parameters are ignored, as for the pets. */
export const ListOrdersQuery = exactObject(
  'ListOrdersQuery',
  {},
  { limit: once(LimitFromText), status: once(OrderStatus), petId: once(PetIdFromText), cursor: once(OrderCursorFromText) },
  'ignore',
);

/** `categoryId` as it comes in the path: an int64 in decimal digits, signed (categories registered from pets' numbers may be negative). */
const CategoryIdFromPath = new t.Type<bigint, string, unknown>(
  'CategoryIdFromPath',
  (u): u is bigint => typeof u === 'bigint' && u >= -INT64_MAX - 1n && u <= INT64_MAX,
  (u, c) => {
    const id = typeof u === 'string' && /^-?[0-9]{1,25}$/.test(u) ? BigInt(u) : undefined;
    return id !== undefined && id >= -INT64_MAX - 1n && id <= INT64_MAX ? t.success(id) : t.failure(u, c, 'must be an integer (int64)');
  },
  String,
);

/** The path parameters of /categories/{categoryId}. */
export const CategoryPathParams = exactObject('CategoryPathParams', { categoryId: CategoryIdFromPath }, {}, 'ignore');
