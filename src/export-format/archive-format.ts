// The export format (NDJSON, docs/operations.md "The export format"): a header line (with,
// from format version 2, the pet ids the source had issued), then one JSON object per record,
// each tagged with its kind (a pet with its version, from format version 2; an API key with
// its scopes and expiry, from format version 3; a category and an order, from format version 4). Lines are written here in one canonical form, so that an export of the same content is the same bytes, and the checksum of `copy`
// is computed over them; and read here with the domain's own codecs, as the interface reads a
// pet, and its rules, so that no idempotency record is restored that the service could not
// have stored.
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { exactObject, positiveId } from '../domain/codec.js';
import { idempotencyRecordProblems } from '../domain/idempotency-record-rules.js';
import {
  type ArchivedApiKey,
  type ArchivedCategory,
  type ArchivedIdempotencyRecord,
  type ArchivedOrder,
  type ArchivedPet,
  CategoryId,
  CategoryName,
  describeFailures,
  type FieldProblem,
  FIRST_PET_VERSION,
  IdempotencyKey,
  type Pet,
  PetId,
  PetName,
  PetStatus,
} from '../domain/index.js';
import { apiKeyLine, apiKeyLineCodec, apiKeyOfLine } from './api-key-line.js';
import { Count, IsoTime, Text } from './line-codecs.js';
import { ORDER_LINE, orderLine, orderOfLine } from './order-line.js';

/** The format every export names in its header line. */
export const ARCHIVE_FORMAT = 'petstore-export';
/** The version an export of this release writes. A newer release that changes a line raises it. */
export const ARCHIVE_VERSION = 4;
/** The versions an import of this release reads: 1 (before pets had versions), 2 (before API keys had scopes and an expiry), 3 (before categories and orders), and 4. */
const READABLE_VERSIONS: readonly number[] = [1, 2, 3, ARCHIVE_VERSION];

/** What the header line of an export says. */
export interface ArchiveHeader {
  readonly version: number;
  /** The largest pet id the source had issued when the export began (deleted pets' included); none in version 1. */
  readonly petIdsIssued: number | undefined;
}

/** The header line of an export of this release, the first of the file. */
export const headerLine = (petIdsIssued: number): string =>
  JSON.stringify({ format: ARCHIVE_FORMAT, version: ARCHIVE_VERSION, petIdsIssued });

/** The kinds of record, in the order an export writes them. */
export const ARCHIVE_KINDS = ['category', 'pet', 'order', 'apiKey', 'idempotencyRecord'] as const;
export type ArchiveKind = (typeof ARCHIVE_KINDS)[number];

/** A decoded line: a record and its kind. */
export type ArchiveLine =
  | { readonly kind: 'category'; readonly record: ArchivedCategory }
  | { readonly kind: 'pet'; readonly record: ArchivedPet }
  | { readonly kind: 'order'; readonly record: ArchivedOrder }
  | { readonly kind: 'apiKey'; readonly record: ArchivedApiKey }
  | { readonly kind: 'idempotencyRecord'; readonly record: ArchivedIdempotencyRecord };

const Version = positiveId<{ readonly PetVersion: unique symbol }>('PetVersion');

/** The header of a format version that names the pet ids issued (2 on). */
const headerWithIdsIssued = <V extends number>(version: V) =>
  exactObject('Header', { format: t.literal(ARCHIVE_FORMAT), version: t.literal(version), petIdsIssued: Count }, {});

const HEADER_CODECS: Readonly<Record<number, t.Decoder<unknown, { readonly version: number; readonly petIdsIssued?: number }>>> = {
  1: exactObject('Header', { format: t.literal(ARCHIVE_FORMAT), version: t.literal(1) }, {}),
  2: headerWithIdsIssued(2),
  3: headerWithIdsIssued(3),
  4: headerWithIdsIssued(4),
};

// The fields of a pet, as the interface has them: the pet of a completed idempotency record,
// and (with its version from format version 2 on) a pet's line.
const PET_FIELDS = { id: PetId, name: PetName, categoryId: CategoryId, status: PetStatus };
const PetFields = exactObject('Pet', PET_FIELDS, {});

/** A pet's line in each version of the format: its version, from format version 2 on. */
const VERSIONED_PET_LINE = exactObject('PetLine', { kind: t.literal('pet'), ...PET_FIELDS, version: Version }, {});
const PET_LINE_CODECS: Readonly<Record<number, t.Decoder<unknown, object>>> = {
  1: exactObject('PetLine', { kind: t.literal('pet'), ...PET_FIELDS }, {}),
  2: VERSIONED_PET_LINE,
  3: VERSIONED_PET_LINE,
  4: VERSIONED_PET_LINE,
};

/** The version from which a file may hold categories' lines. */
const FIRST_VERSION_WITH_CATEGORIES = 4;

const LINE_CODECS = {
  // Any id a stored category can have: a pet's categoryId (register-used keeps the pets' numbers, zero and negative ones too).
  category: exactObject('CategoryLine', { kind: t.literal('category'), id: CategoryId, name: CategoryName, version: Version }, {}),
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

/** The codec of a line of `kind` in format version `version`. */
function lineCodec(kind: ArchiveKind, version: number): t.Decoder<unknown, object> {
  switch (kind) {
    case 'category':
      return LINE_CODECS.category;
    case 'pet':
      return PET_LINE_CODECS[version]!;
    case 'order':
      return ORDER_LINE;
    case 'apiKey':
      return apiKeyLineCodec(version);
    case 'idempotencyRecord':
      return LINE_CODECS.idempotencyRecord;
  }
}

/** A pet's fields in their canonical order: with PET_FIELDS, the one list of them in the format. */
const petObject = (pet: Pet) => ({ id: pet.id, name: pet.name, categoryId: pet.categoryId, status: pet.status });

/** The canonical line of a pet: its fields, then its version. */
export const petLine = (pet: ArchivedPet): string => JSON.stringify({ kind: 'pet', ...petObject(pet), version: pet.version });

/** The canonical line of any record. */
export function lineOf(line: ArchiveLine): string {
  switch (line.kind) {
    case 'category': {
      const { id, name, version } = line.record;
      return JSON.stringify({ kind: 'category', id, name, version });
    }
    case 'pet':
      return petLine(line.record);
    case 'order':
      return orderLine(line.record);
    case 'apiKey':
      return apiKeyLine(line.record);
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

/** Every problem of a line, each with its JSON Pointer. */
const sentenceOf = (problems: readonly FieldProblem[]): string =>
  problems.map(({ pointer, message }) => `${pointer === '' ? 'the line' : pointer} ${message}`).join('; ');

/** Every problem of a line that does not decode. */
const problemsOf = (errors: t.Errors): string => sentenceOf(describeFailures(errors));

/** What the first line of a file says, or why it is not the header of an export this release reads. */
export function readHeader(text: string): E.Either<string, ArchiveHeader> {
  const header = parsed(text);
  const value = E.isRight(header) ? (header.right as { format?: unknown; version?: unknown } | null) : null;
  if (typeof value !== 'object' || value === null || value.format !== ARCHIVE_FORMAT) {
    return E.left(`it is not a petstore export: its first line is not a header such as ${headerLine(0)}`);
  }
  const version = value.version;
  if (typeof version !== 'number' || !READABLE_VERSIONS.includes(version)) {
    return E.left(
      `it is a petstore export of format version ${JSON.stringify(version)}, which this release does not read (it reads versions ${READABLE_VERSIONS.slice(0, -1).join(', ')} and ${READABLE_VERSIONS.at(-1)})`,
    );
  }
  const decoded = HEADER_CODECS[version]!.decode(value);
  if (E.isLeft(decoded)) return E.left(`its header line is not one of format version ${version}: ${problemsOf(decoded.left)}`);
  return E.right({ version, petIdsIssued: decoded.right.petIdsIssued });
}

/**
 * The record of one line after the header of format version `version`, or why it is not one (a
 * sentence, with the JSON Pointer of each problem). A pet of version 1, which has none, is at the first version.
 */
export function decodeLine(text: string, version: number): E.Either<string, ArchiveLine> {
  const value = parsed(text);
  if (E.isLeft(value)) return value;
  const kind = (value.right as { kind?: unknown } | null)?.kind;
  if (typeof kind !== 'string' || !(ARCHIVE_KINDS as readonly string[]).includes(kind)) {
    return E.left(`has no known "kind" (one of ${ARCHIVE_KINDS.join(', ')})`);
  }
  // Categories and orders came with format version 4: an older file names none.
  if (kind === 'category' && version < FIRST_VERSION_WITH_CATEGORIES) {
    return E.left(
      `is a category, which a file of format version ${version} does not hold (from version ${FIRST_VERSION_WITH_CATEGORIES} on)`,
    );
  }
  if (kind === 'order' && version < 4) return E.left(`is an order, which format version ${version} does not have`);
  const codec = lineCodec(kind as ArchiveKind, version);
  const decoded = codec.decode(value.right);
  if (E.isLeft(decoded)) return E.left(problemsOf(decoded.left));
  const { kind: _kind, ...fields } = decoded.right as Record<string, unknown> & { kind: ArchiveKind };
  switch (kind as ArchiveKind) {
    case 'category':
      return E.right({ kind: 'category', record: fields as unknown as ArchivedCategory });
    case 'pet':
      return E.right({ kind: 'pet', record: { version: FIRST_PET_VERSION, ...fields } as unknown as ArchivedPet });
    case 'order':
      return E.right({ kind: 'order', record: orderOfLine(fields) });
    case 'apiKey':
      return E.right({ kind: 'apiKey', record: apiKeyOfLine(fields) });
    case 'idempotencyRecord': {
      const times = fields as { expiresAt: string; leaseExpiresAt: string };
      const record = {
        ...fields,
        expiresAt: new Date(times.expiresAt),
        leaseExpiresAt: new Date(times.leaseExpiresAt),
      } as unknown as ArchivedIdempotencyRecord;
      const problems = idempotencyRecordProblems(record);
      return problems.length > 0 ? E.left(sentenceOf(problems)) : E.right({ kind: 'idempotencyRecord', record });
    }
  }
}
