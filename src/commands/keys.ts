// `petstore keys create|list|revoke`: the API keys stored in the service's database, managed
// from the command line with the server's own configuration (PETSTORE_DB…). A running server
// sees a created key, or a revocation, on its next request: it asks the database every time.
import 'reflect-metadata';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import { onDatabase, type Output, printRecords, table } from './database-command.js';
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

async function run(request: KeysRequest, admin: ApiKeyAdmin, output: Output): Promise<number> {
  switch (request.action) {
    case 'create': {
      const label = ApiKeyLabel.decode(request.label);
      if (E.isLeft(label)) {
        output.err(`petstore: --label ${String(label.left[0]?.message)}\n`);
        return 2;
      }
      const { key, record } = await admin.create(label.right);
      if (request.json) {
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
      printRecords(output, request.json, await admin.list(), { json: asJson, table: keysTable, none: 'No stored API keys.' });
      return 0;
    }
    case 'revoke': {
      const id = /^[0-9]{1,16}$/.test(request.id) ? ApiKeyId.decode(Number(request.id)) : E.left([]);
      if (E.isLeft(id)) {
        output.err(
          `petstore: keys revoke needs the id of a key (a positive integer, see "petstore keys list"), not ${JSON.stringify(request.id)}\n`,
        );
        return 2;
      }
      const revoked = await admin.revoke(id.right);
      if (O.isNone(revoked)) {
        output.err(`petstore: no stored API key has id ${id.right}\n`);
        return 1;
      }
      output.out(
        `API key ${id.right} (caller ${revoked.value.callerId}) is revoked since ${revoked.value.revokedAt?.toISOString()}: it is refused from the next request on.\n`,
      );
      return 0;
    }
  }
}

/** Runs `keys` on the database `env` configures; answers the exit code (0 done, 1 failed, 2 misused). */
export const keys = (request: KeysRequest, env: Readonly<Record<string, string | undefined>>, output: Output): Promise<number> =>
  onDatabase<ApiKeyAdmin>(env, output, 'keys', { token: TOKENS.ApiKeyAdmin, creates: request.action === 'create' }, (admin) =>
    run(request, admin, output),
  );
