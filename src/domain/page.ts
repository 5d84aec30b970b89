// The page-size rule of the pet list: how many pets one answer may hold.
import * as t from 'io-ts';
import { constrained } from './codec.js';

/** The smallest, largest and default page size of the pet list, as the interface fixes them. */
export const PAGE_LIMIT = { min: 1, max: 100, default: 20 } as const;
const limitRule = `must be an integer between ${PAGE_LIMIT.min} and ${PAGE_LIMIT.max}`;

/** Brand of {@link Limit}. */
export interface LimitBrand {
  readonly Limit: unique symbol;
}
/** The number of pets one list answer may hold: an integer from 1 to 100. */
export const Limit = constrained<number, t.Branded<number, LimitBrand>>(
  'Limit',
  t.number,
  (n) => (Number.isInteger(n) && n >= PAGE_LIMIT.min && n <= PAGE_LIMIT.max ? undefined : limitRule),
  limitRule,
);
export type Limit = t.TypeOf<typeof Limit>;

/** The page size when none is asked for: 20. */
export const DEFAULT_LIMIT = PAGE_LIMIT.default as Limit;
