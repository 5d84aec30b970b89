// The ETag of a pet and the conditional request headers that name it (RFC 9110 §8.8.3, §13.1).
// A pet's ETag is strong and names its id and version, `"<id>-<version>"`: it changes with every
// change of the pet, and no two pets share one.
import type { ExpectedVersion, PetId, PetVersion } from '../../../domain/index.js';

/** The ETag of a pet at a version. */
export const petETag = (id: PetId, version: PetVersion): string => `"${id}-${version}"`;

// An entity-tag in a list: optionally weak (W/), then a quoted string without quotes inside.
const ENTITY_TAG = /\s*(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"\s*(?:,|$)/y;

/** The entity-tags of an If-Match or If-None-Match list, each with whether it is weak; none when the list is malformed. */
function entityTags(header: string): Array<{ weak: boolean; opaque: string }> | undefined {
  const tags: Array<{ weak: boolean; opaque: string }> = [];
  ENTITY_TAG.lastIndex = 0;
  while (ENTITY_TAG.lastIndex < header.length) {
    const match = ENTITY_TAG.exec(header);
    if (match === null) return undefined;
    tags.push({ weak: match[1] !== undefined, opaque: match[2]! });
  }
  return tags;
}

/**
 * What an If-Match header expects of pet `id`: any version when it is absent or `*`; else the
 * versions its strong tags of this pet name (strong comparison: a weak tag never matches). A
 * malformed header, or tags of no version of this pet, match nothing: the change is refused.
 */
export function expectedVersions(ifMatch: string | undefined, id: PetId): ExpectedVersion {
  if (ifMatch === undefined || ifMatch.trim() === '*') return 'any';
  const prefix = `${id}-`;
  return (entityTags(ifMatch) ?? [])
    .filter((tag) => !tag.weak && tag.opaque.startsWith(prefix) && /^[1-9][0-9]{0,15}$/.test(tag.opaque.slice(prefix.length)))
    .map((tag) => Number(tag.opaque.slice(prefix.length)));
}

/** Whether an If-None-Match header matches `etag` (weak comparison; `*` matches any current pet). */
export function noneMatchFails(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = etag.slice(1, -1);
  return (entityTags(ifNoneMatch) ?? []).some((tag) => tag.opaque === opaque);
}
