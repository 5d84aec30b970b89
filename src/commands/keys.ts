// `petstore keys create|list|revoke`: the API keys stored in the service's database, managed
// from the command line with the server's own configuration (PETSTORE_DB…). A running server
// sees a created key, or a revocation, on its next request: it asks the database every time.
import 'reflect-metadata';
import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as O from 'fp-ts/lib/Option.js';
import { decimalId, onDatabase, type Output, printRecords, table, unlessMisused } from './support/database-command.js';
import { expiryOption, scopesOption } from './support/key-grant-options.js';
import { TOKENS } from '../composition/index.js';
import {
  type ApiKeyAdmin,
  type ApiKeyGrant,
  ApiKeyId,
  ApiKeyLabel,
  type ApiKeyRecord,
  type ApiKeyScopes,
  SCOPES,
} from '../domain/index.js';

/** What `keys` was asked to do, once its arguments are parsed. */
export type KeysRequest =
  | {
      readonly action: 'create';
      readonly label: string;
      /** The names given with --scope, each time it was given; undefined when it was not. */
      readonly scopes: readonly string[] | undefined;
      readonly expiresIn: string | undefined;
      readonly expiresAt: string | undefined;
      readonly json: boolean;
    }
  | { readonly action: 'list'; readonly json: boolean }
  | { readonly action: 'revoke'; readonly id: string };

const isoOrNull = (time: Date | null): string | null => time?.toISOString() ?? null;

const asJson = (record: ApiKeyRecord) => ({
  id: record.id,
  label: record.label,
  callerId: record.callerId,
  scopes: record.scopes,
  createdAt: record.createdAt.toISOString(),
  expiresAt: isoOrNull(record.expiresAt),
  revokedAt: isoOrNull(record.revokedAt),
  lastUsedAt: isoOrNull(record.lastUsedAt),
});

/** A time to the minute, in UTC (2030-01-01T10:00Z), or `none` when there is none. */
const minute = (time: Date | null, none: string): string => (time === null ? none : `${time.toISOString().slice(0, 16)}Z`);
const scopesText = (scopes: ApiKeyScopes): string => (scopes === 'all' ? 'all' : scopes.join(','));

const keysTable = (records: readonly ApiKeyRecord[]): string =>
  table([
    ['ID', 'LABEL', 'CALLER', 'SCOPES', 'CREATED', 'EXPIRES', 'LAST USED', 'REVOKED'],
    ...records.map((r) => [
      String(r.id),
      r.label,
      r.callerId,
      scopesText(r.scopes),
      minute(r.createdAt, '-'),
      minute(r.expiresAt, 'never'),
      minute(r.lastUsedAt, 'never'),
      minute(r.revokedAt, '-'),
    ]),
  ]);

/** A `keys` request whose arguments are checked: what it does on the database. */
type KeysCommand =
  | { readonly action: 'create'; readonly label: ApiKeyLabel; readonly grant: ApiKeyGrant; readonly json: boolean }
  | { readonly action: 'list'; readonly json: boolean }
  | { readonly action: 'revoke'; readonly id: ApiKeyId };

/** The create command `request` asks for, its expiry checked against `now`; or the misuse to tell. */
function createCommand(request: Extract<KeysRequest, { action: 'create' }>, now: Date): E.Either<string, KeysCommand> {
  const label = ApiKeyLabel.decode(request.label);
  if (E.isLeft(label)) return E.left(`petstore: --label ${String(label.left[0]?.message)}\n`);
  return pipe(
    E.Do,
    E.apS('scopes', scopesOption(request.scopes)),
    E.apS('expiry', expiryOption(request.expiresIn, request.expiresAt, now)),
    E.map(({ scopes, expiry }) => ({
      action: 'create' as const,
      label: label.right,
      grant: expiry === undefined ? { scopes } : { scopes, expiry },
      json: request.json,
    })),
  );
}

/** The command `request` asks for, or the misuse to tell: checked before the database is opened. */
function commandOf(request: KeysRequest, now: Date): E.Either<string, KeysCommand> {
  switch (request.action) {
    case 'create':
      return createCommand(request, now);
    case 'list':
      return E.right(request);
    case 'revoke': {
      const misuse = `petstore: keys revoke needs the id of a key (a positive integer, see "petstore keys list"), not ${JSON.stringify(request.id)}\n`;
      return pipe(
        decimalId(ApiKeyId, request.id, misuse),
        E.map((id) => ({ action: 'revoke', id })),
      );
    }
  }
}

/** What a new key may do and until when, in words. */
const grantText = (record: ApiKeyRecord): string =>
  `Scopes: ${record.scopes === 'all' ? `every scope, those of later releases too (today ${SCOPES.join(', ')})` : record.scopes.join(', ')}.\n` +
  `Expires: ${record.expiresAt === null ? 'never' : record.expiresAt.toISOString()}.\n`;

async function run(command: KeysCommand, admin: ApiKeyAdmin, output: Output): Promise<number> {
  switch (command.action) {
    case 'create': {
      const { key, record } = await admin.create(command.label, command.grant);
      if (command.json) {
        output.out(`${JSON.stringify({ key, ...asJson(record) })}\n`);
      } else {
        output.out(
          `Created API key ${record.id}${record.label === '' ? '' : ` (${JSON.stringify(record.label)})`}, caller ${record.callerId}.\n` +
            `${grantText(record)}It is shown only this once and stored only as its SHA-256:\n\n  ${key}\n\n`,
        );
      }
      return 0;
    }
    case 'list': {
      printRecords(output, command.json, await admin.list(), { json: asJson, table: keysTable, none: 'No stored API keys.' });
      return 0;
    }
    case 'revoke': {
      const revoked = await admin.revoke(command.id);
      if (O.isNone(revoked)) {
        output.err(`petstore: no stored API key has id ${command.id}\n`);
        return 1;
      }
      output.out(
        `API key ${command.id} (caller ${revoked.value.callerId}) is revoked since ${revoked.value.revokedAt?.toISOString()}: it is refused from the next request on.\n`,
      );
      return 0;
    }
  }
}

/** Runs `keys` on the database `env` configures; answers the exit code (0 done, 1 failed, 2 misused). */
export const keys = (request: KeysRequest, env: Readonly<Record<string, string | undefined>>, output: Output): Promise<number> =>
  unlessMisused(commandOf(request, new Date()), output, (command) =>
    onDatabase<ApiKeyAdmin>(env, output, 'keys', { token: TOKENS.ApiKeyAdmin, creates: command.action === 'create' }, (admin) =>
      run(command, admin, output),
    ),
  );
