// The export format (NDJSON, docs/operations.md "The export format"): a header line, then one
// JSON object per record, each tagged with its kind. Lines are written here in one canonical
// form, so that an export of the same content is the same bytes, and the checksum of `copy`
// is computed over them; and read here with the domain's own codecs, as the interface reads a pet.
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { constrained, exactObject } from '../domain/codec.js';
import {
  ApiKeyId,
  ApiKeyLabel,
  type ArchivedApiKey,
  type ArchivedIdempotencyRecord,
  CategoryId,
  describeFailures,
  IdempotencyKey,
  type Pet,
  PetId,
  PetName,
  PetStatus,
} from '../domain/index.js';

/** The first line of every export. A newer release that changes a line raises the version. */
export const ARCHIVE_HEADER = { format: 'petstore-export', version: 1 } as const;
export const ARCHIVE_HEADER_LINE = JSON.stringify(ARCHIVE_HEADER);

/** The kinds of record, in the order an export writes them. */
export const ARCHIVE_KINDS = ['pet', 'apiKey', 'idempotencyRecord'] as const;
export type ArchiveKind = (typeof ARCHIVE_KINDS)[number];

/** A decoded line: a record and its kind. */
export type ArchiveLine =
  | { readonly kind: 'pet'; readonly record: Pet }
  | { readonly kind: 'apiKey'; readonly record: ArchivedApiKey }
  | { readonly kind: 'idempotencyRecord'; readonly record: ArchivedIdempotencyRecord };

const IsoTime = constrained<string, string>(
  'IsoTime',
  t.string,
  (text) =>
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(text) && !Number.isNaN(Date.parse(text))
      ? undefined
      : 'must be a UTC time as 2026-11-26T10:00:00.000Z',
  'must be a UTC time as 2026-11-26T10:00:00.000Z',
);
const Text = constrained<string, string>(
  'Text',
  t.string,
  (text) => (text.length > 0 ? undefined : 'must not be empty'),
  'must be a string',
);
const Digest = constrained<string, string>(
  'Digest',
  t.string,
  (text) => (/^[0-9a-f]{64}$/.test(text) ? undefined : 'must be 64 lower-case hex digits'),
  'must be a string',
);

// The fields of a pet, as the interface has them: its line, and the pet of a completed idempotency record.
const PET_FIELDS = { id: PetId, name: PetName, categoryId: CategoryId, status: PetStatus };
const PetFields = exactObject('Pet', PET_FIELDS, {});

const LINE_CODECS = {
  pet: exactObject('PetLine', { kind: t.literal('pet'), ...PET_FIELDS }, {}),
  apiKey: exactObject(
    'ApiKeyLine',
    {
      kind: t.literal('apiKey'),
      id: ApiKeyId,
      digest: Digest,
      callerId: Text,
      label: ApiKeyLabel,
      createdAt: IsoTime,
      revokedAt: t.union([IsoTime, t.null]),
    },
    {},
  ),
  idempotencyRecord: exactObject(
    'IdempotencyRecordLine',
    {
      kind: t.literal('idempotencyRecord'),
      scope: Text,
      key: IdempotencyKey,
      token: Text,
      fingerprint: Text,
      pet: t.union([PetFields, t.null]),
      expiresAt: IsoTime,
      leaseExpiresAt: IsoTime,
    },
    {},
  ),
};

/** A pet's fields in their canonical order: with PET_FIELDS, the one list of them in the format. */
const petObject = (pet: Pet) => ({ id: pet.id, name: pet.name, categoryId: pet.categoryId, status: pet.status });

/** The canonical line of a pet. */
export const petLine = (pet: Pet): string => JSON.stringify({ kind: 'pet', ...petObject(pet) });

/** The canonical line of any record. */
export function lineOf(line: ArchiveLine): string {
  switch (line.kind) {
    case 'pet':
      return petLine(line.record);
    case 'apiKey': {
      const { id, digest, callerId, label, createdAt, revokedAt } = line.record;
      return JSON.stringify({
        kind: 'apiKey',
        id,
        digest,
        callerId,
        label,
        createdAt: createdAt.toISOString(),
        revokedAt: revokedAt?.toISOString() ?? null,
      });
    }
    case 'idempotencyRecord': {
      const { scope, key, token, fingerprint, pet, expiresAt, leaseExpiresAt } = line.record;
      return JSON.stringify({
        kind: 'idempotencyRecord',
        scope,
        key,
        token,
        fingerprint,
        pet: pet === null ? null : petObject(pet),
        expiresAt: expiresAt.toISOString(),
        leaseExpiresAt: leaseExpiresAt.toISOString(),
      });
    }
  }
}

const parsed = (text: string): E.Either<string, unknown> => {
  try {
    return E.right(JSON.parse(text) as unknown);
  } catch {
    return E.left('is not JSON');
  }
};

/** Why the first line is not the header of an export this release reads, or undefined when it is. */
export function headerProblem(text: string): string | undefined {
  const header = parsed(text);
  const value = E.isRight(header) ? (header.right as { format?: unknown; version?: unknown } | null) : null;
  if (typeof value !== 'object' || value === null || value.format !== ARCHIVE_HEADER.format) {
    return `it is not a petstore export: its first line is not ${ARCHIVE_HEADER_LINE}`;
  }
  if (value.version !== ARCHIVE_HEADER.version) {
    return `it is a petstore export of format version ${JSON.stringify(value.version)}, which this release does not read (it reads version ${ARCHIVE_HEADER.version})`;
  }
  return undefined;
}

/** The record of one line after the header, or why it is not one (a sentence, with the JSON Pointer of each problem). */
export function decodeLine(text: string): E.Either<string, ArchiveLine> {
  const value = parsed(text);
  if (E.isLeft(value)) return value;
  const kind = (value.right as { kind?: unknown } | null)?.kind;
  if (typeof kind !== 'string' || !Object.prototype.hasOwnProperty.call(LINE_CODECS, kind)) {
    return E.left(`has no known "kind" (one of ${ARCHIVE_KINDS.join(', ')})`);
  }
  const decoded = LINE_CODECS[kind as ArchiveKind].decode(value.right);
  if (E.isLeft(decoded)) {
    return E.left(
      describeFailures(decoded.left)
        .map(({ pointer, message }) => `${pointer === '' ? 'the line' : pointer} ${message}`)
        .join('; '),
    );
  }
  const { kind: _kind, ...fields } = decoded.right as Record<string, unknown> & { kind: ArchiveKind };
  switch (kind as ArchiveKind) {
    case 'pet':
      return E.right({ kind: 'pet', record: fields as unknown as Pet });
    case 'apiKey': {
      const key = fields as { createdAt: string; revokedAt: string | null };
      return E.right({
        kind: 'apiKey',
        record: {
          ...fields,
          createdAt: new Date(key.createdAt),
          revokedAt: key.revokedAt === null ? null : new Date(key.revokedAt),
        } as unknown as ArchivedApiKey,
      });
    }
    case 'idempotencyRecord': {
      const times = fields as { expiresAt: string; leaseExpiresAt: string };
      return E.right({
        kind: 'idempotencyRecord',
        record: {
          ...fields,
          expiresAt: new Date(times.expiresAt),
          leaseExpiresAt: new Date(times.leaseExpiresAt),
        } as unknown as ArchivedIdempotencyRecord,
      });
    }
  }
}
