// An API key's line of the export format: its digest (never the key), its record, and from
// format version 3 on its scopes and expiry. A key of versions 1 and 2, made before keys had
// either, holds every scope and never expires, as it did. The last use is not carried
// (ArchivedApiKey says why).
import * as t from 'io-ts';
import { exactObject } from '../domain/codec.js';
import { ApiKeyId, ApiKeyLabel, type ArchivedApiKey } from '../domain/index.js';
import { Digest, IsoTime, ScopesField, Text } from './line-codecs.js';

const KEY_FIELDS = {
  kind: t.literal('apiKey'),
  id: ApiKeyId,
  digest: Digest,
  callerId: Text,
  label: ApiKeyLabel,
  createdAt: IsoTime,
  revokedAt: t.union([IsoTime, t.null]),
};
const BEFORE_SCOPES = exactObject('ApiKeyLine', KEY_FIELDS, {});
const WITH_SCOPES = exactObject('ApiKeyLine', { ...KEY_FIELDS, scopes: ScopesField, expiresAt: t.union([IsoTime, t.null]) }, {});

/** The codec of an API key's line in format version `version`. */
export const apiKeyLineCodec = (version: number): t.Decoder<unknown, object> => (version >= 3 ? WITH_SCOPES : BEFORE_SCOPES);

const timeOf = (text: string | null | undefined): Date | null => (text === null || text === undefined ? null : new Date(text));

/** The key of a decoded line (without its kind): every scope and no expiry when the line has neither. */
export function apiKeyOfLine(fields: object): ArchivedApiKey {
  const line = fields as t.TypeOf<typeof BEFORE_SCOPES> & Partial<t.TypeOf<typeof WITH_SCOPES>>;
  return {
    id: line.id,
    digest: line.digest,
    callerId: line.callerId,
    label: line.label,
    scopes: line.scopes ?? 'all',
    createdAt: new Date(line.createdAt),
    expiresAt: timeOf(line.expiresAt),
    revokedAt: timeOf(line.revokedAt),
  };
}

/** The canonical line of a key, in the newest format version. */
export const apiKeyLine = (key: ArchivedApiKey): string =>
  JSON.stringify({
    kind: 'apiKey',
    id: key.id,
    digest: key.digest,
    callerId: key.callerId,
    label: key.label,
    scopes: key.scopes,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
  });
