// The ETag of a pet (or an order, or a category) and the conditional request headers that name it (RFC 9110 §8.8.3, §13.1).
// A pet's ETag is strong and names its id and version, `"<id>-<version>"`: it changes with every
// change of the pet, and no two pets share one.
import type { ExpectedVersion, PetVersion } from '../../../domain/index.js';

/** The ETag of a pet at a version; an order's and a category's are made the same way, from their own id and version. */
export const petETag = (id: number, version: PetVersion): string => `"${id}-${version}"`;

/** An entity-tag of a list, and whether it is weak (`W/`). */
export interface EntityTag {
  readonly weak: boolean;
  readonly opaque: string;
}

/** An If-Match or If-None-Match field: `*`, or a list of entity-tags. */
export type EntityTagList = '*' | readonly EntityTag[];

// An entity-tag in a list: optionally weak (W/), then a quoted string without quotes inside.
const ENTITY_TAG = /(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"\s*(?:,|$)/y;
// Before an element: blanks and empty elements, which a recipient must accept (RFC 9110 §5.6.1.2).
const EMPTY_ELEMENTS = /[\s,]*/y;

/** The `*` or entity-tags of an If-Match or If-None-Match field; undefined when it is neither. */
export function parseEntityTags(field: string): EntityTagList | undefined {
  if (field.trim() === '*') return '*';
  const tags: EntityTag[] = [];
  for (let at = 0; ;) {
    EMPTY_ELEMENTS.lastIndex = at;
    EMPTY_ELEMENTS.exec(field);
    if (EMPTY_ELEMENTS.lastIndex >= field.length) break;
    ENTITY_TAG.lastIndex = EMPTY_ELEMENTS.lastIndex;
    const match = ENTITY_TAG.exec(field);
    if (match === null) return undefined;
    tags.push({ weak: match[1] !== undefined, opaque: match[2]! });
    at = ENTITY_TAG.lastIndex;
  }
  return tags.length === 0 ? undefined : tags;
}

/** The versions of pet `id` that `tags` name (`any` for `*`), comparing as `strong` says (RFC 9110 §8.8.3.2). */
function versionsNamed(tags: EntityTagList, id: number, strong: boolean): ExpectedVersion {
  if (tags === '*') return 'any';
  const prefix = `${id}-`;
  return tags
    .filter((tag) => !(strong && tag.weak) && tag.opaque.startsWith(prefix) && /^[1-9][0-9]{0,15}$/.test(tag.opaque.slice(prefix.length)))
    .map((tag) => Number(tag.opaque.slice(prefix.length)));
}

/**
 * What an If-Match field expects of pet `id`: any version when it is absent or `*`; else the
 * versions its strong tags of this pet name (a weak tag never matches). Tags of no version of
 * this pet match nothing: the request is refused.
 */
export const expectedVersions = (ifMatch: EntityTagList | undefined, id: number): ExpectedVersion =>
  ifMatch === undefined ? 'any' : versionsNamed(ifMatch, id, true);

/** The versions of pet `id` an If-None-Match field names (weak comparison; `*`: every one), or undefined when it is absent. */
export const excludedVersions = (ifNoneMatch: EntityTagList | undefined, id: number): ExpectedVersion | undefined =>
  ifNoneMatch === undefined ? undefined : versionsNamed(ifNoneMatch, id, false);
