// The conditional request headers of a pet's operations, If-Match and If-None-Match (RFC 9110
// §13.1), as what they ask of the pet's version. A malformed field names no version: If-Match
// then matches nothing (412), and If-None-Match excludes nothing, as both did in interface 1.1.
import type { Context } from 'koa';
import type { VersionCondition } from '../../../domain/index.js';
import { excludedVersions, expectedVersions, parseEntityTags } from './entity-tags.js';

/** The versions of pet (or order, or category) `id` the request's If-Match and If-None-Match fields allow. */
export function conditionOf(ctx: Context, id: number): VersionCondition {
  const ifMatch = ctx.request.headers['if-match'];
  const ifNoneMatch = ctx.request.headers['if-none-match'];
  return {
    expected: expectedVersions(ifMatch === undefined ? undefined : (parseEntityTags(ifMatch) ?? []), id),
    excluded: excludedVersions(ifNoneMatch === undefined ? undefined : (parseEntityTags(ifNoneMatch) ?? []), id),
  };
}
