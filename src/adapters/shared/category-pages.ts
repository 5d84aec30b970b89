// The SQL of a page of one category's pets, for SQLite and PostgreSQL alike. The index on
// pets (category_id, status, id) answers a category and a status in id order straight away.
// A category alone is the three statuses' ranges merged: each reads at most `limit` rows from
// the cursor on, so a page costs O(limit) however many pets the category or the store holds,
// with one index rather than a second one that every create would also have to write.
import { PET_STATUSES } from '../../domain/index.js';

/** The placeholders of a statement: the category, the id to page after, the page size. */
export interface PagePlaceholders {
  readonly category: string;
  readonly after: string;
  readonly limit: string;
}

/** The pets of a category with a status (a fourth placeholder), in id order. */
export const categoryStatusPageSql = (columns: string, p: PagePlaceholders, status: string): string =>
  `SELECT ${columns} FROM pets WHERE category_id = ${p.category} AND status = ${status} AND id > ${p.after} ORDER BY id LIMIT ${p.limit}`;

/** The pets of a category, every status, in id order. */
export const categoryPageSql = (columns: string, p: PagePlaceholders): string =>
  `SELECT ${columns} FROM (${PET_STATUSES.map(
    (status) => `SELECT * FROM (${categoryStatusPageSql(columns, p, `'${status}'`)}) AS ${status}`,
  ).join(' UNION ALL ')}) AS merged ORDER BY id LIMIT ${p.limit}`;
