// `petstore keys create|list|revoke`: the API keys stored in the service's database, managed
// from the command line with the server's own configuration (PETSTORE_DB…). A running server
// sees a created key, or a revocation, on its next request: it asks the database every time.
import 'reflect-metadata';
import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as O from 'fp-ts/lib/Option.js';
import { decimalId, onDatabase, type Output, printRecords, table, unlessMisused } from './support/database-command.js';
import { TOKENS } from '../composition/index.js';
import { type ApiKeyAdmin, ApiKeyId, ApiKeyLabel, type ApiKeyRecord } from '../domain/index.js';

/** What `keys` was asked to do, once its arguments are parsed. */
export type KeysRequest =
  | { readonly action: 'create'; readonly label: string; readonly json: boolean }
  | { readonly action: 'list'; readonly json: boolean }
  | { readonly action: 'revoke'; readonly id: string };

const asJson = (record: ApiKeyRecord) => ({
  id: record.id,
  label: record.label,
  callerId: record.callerId,
  createdAt: record.createdAt.toISOString(),
  revokedAt: record.revokedAt?.toISOString() ?? null,
});

const keysTable = (records: readonly ApiKeyRecord[]): string =>
  table([
    ['ID', 'LABEL', 'CALLER', 'CREATED', 'REVOKED'],
    ...records.map((r) => [String(r.id), r.label, r.callerId, r.createdAt.toISOString(), r.revokedAt?.toISOString() ?? '-']),
  ]);

/** A `keys` request whose arguments are checked: what it does on the database. */
type KeysCommand =
  | { readonly action: 'create'; readonly label: ApiKeyLabel; readonly json: boolean }
  | { readonly action: 'list'; readonly json: boolean }
  | { readonly action: 'revoke'; readonly id: ApiKeyId };

/** The command `request` asks for, or the misuse to tell: checked before the database is opened. */
function commandOf(request: KeysRequest): E.Either<string, KeysCommand> {
  switch (request.action) {
    case 'create': {
      const label = ApiKeyLabel.decode(request.label);
      return E.isRight(label)
        ? E.right({ action: 'create', label: label.right, json: request.json })
        : E.left(`petstore: --label ${String(label.left[0]?.message)}\n`);
    }
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

async function run(command: KeysCommand, admin: ApiKeyAdmin, output: Output): Promise<number> {
  switch (command.action) {
    case 'create': {
      const { key, record } = await admin.create(command.label);
      if (command.json) {
        output.out(`${JSON.stringify({ key, ...asJson(record) })}\n`);
      } else {
        output.out(
          `Created API key ${record.id}${record.label === '' ? '' : ` (${JSON.stringify(record.label)})`}, ` +
            `caller ${record.callerId}. It is shown only this once and stored only as its SHA-256:\n\n  ${key}\n\n`,
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
  unlessMisused(commandOf(request), output, (command) =>
    onDatabase<ApiKeyAdmin>(env, output, 'keys', { token: TOKENS.ApiKeyAdmin, creates: command.action === 'create' }, (admin) =>
      run(command, admin, output),
    ),
  );
