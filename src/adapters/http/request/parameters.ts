// io-ts codecs for the query and path parameters: the edge turns their text into domain values.
import * as E from 'fp-ts/lib/Either.js';
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

/** The decoded query of a list whose parameters are `P`: each of them optional. */
type ListQueryOf<P extends t.Props> = { readonly [K in keyof P]?: t.TypeOf<P[K]> };

/**
 * The query of a list: its `parameters`, each optional, unknown ones ignored (caches and
 * proxies add their own). Once every parameter is valid, a cursor sent with other filters than
 * it was issued for is refused too, as a failure of `cursor` that `mismatch` words.
 */
function listQuery<P extends t.Props>(
  name: string,
  parameters: P,
  mismatch: (query: ListQueryOf<P>) => string | undefined = () => undefined,
): t.Type<ListQueryOf<P>, unknown, unknown> {
  const codec: t.Type<ListQueryOf<P>, unknown, unknown> = exactObject(name, {}, parameters, 'ignore');
  return new t.Type<ListQueryOf<P>, unknown, unknown>(
    name,
    codec.is,
    (u, c) => {
      const query = codec.validate(u, c);
      const problem = E.isRight(query) ? mismatch(query.right) : undefined;
      return problem === undefined ? query : t.failure(u, t.appendContext(c, 'cursor', t.unknown, u), problem);
    },
    codec.encode,
  );
}

/** The filters a cursor of the pet list was issued for, in words. */
const petFilterText = (status: string | undefined, categoryId: number | undefined): string =>
  status === undefined && categoryId === undefined
    ? 'the list without status or categoryId'
    : [status === undefined ? '' : `status=${status}`, categoryId === undefined ? '' : `categoryId=${categoryId}`]
        .filter((part) => part !== '')
        .join(' and ');

/** The query of GET /pets: its cursor keeps the status and category it was issued for. */
export const ListPetsQuery = listQuery(
  'ListPetsQuery',
  { limit: once(LimitFromText), status: once(PetStatus), categoryId: once(CategoryIdFromText), cursor: once(CursorFromText) },
  ({ status, categoryId, cursor }) =>
    cursor === undefined || (cursor.status === status && cursor.categoryId === categoryId)
      ? undefined
      : `was issued for ${petFilterText(cursor.status, cursor.categoryId)}: send the same filter with it`,
);

/** The query of GET /categories. */
export const ListCategoriesQuery = listQuery('ListCategoriesQuery', { limit: once(LimitFromText), cursor: once(CategoryCursorFromText) });

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

/** A filter (`field`) a cursor of the order list was issued for (`issued`), which the request does not send. */
const orderFilterMismatch = (field: string, issued: string | number | undefined): string =>
  `was issued for ${issued === undefined ? `the list without ${field}` : `${field}=${String(issued)}`}: send the same ${field} with it`;

/** The query of GET /orders: its cursor keeps the status and pet it was issued for. */
export const ListOrdersQuery = listQuery(
  'ListOrdersQuery',
  { limit: once(LimitFromText), status: once(OrderStatus), petId: once(PetIdFromText), cursor: once(OrderCursorFromText) },
  ({ status, petId, cursor }) =>
    cursor === undefined
      ? undefined
      : cursor.status !== status
        ? orderFilterMismatch('status', cursor.status)
        : cursor.petId !== petId
          ? orderFilterMismatch('petId', cursor.petId)
          : undefined,
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
