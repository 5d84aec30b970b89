// export --all, import and copy carry each stored key's scopes and expiry (format version 3),
// not its last use; a file of format version 1 or 2 imports its keys with every scope and no
// expiry. On real SQLite files and a real PostgreSQL schema, the commands run in this process.
import { readFileSync, writeFileSync } from 'node:fs';
import { expect } from 'chai';
import { openSqliteDatabase } from '../../src/adapters/sqlite/open-sqlite-database.js';
import { SqliteApiKeyStore } from '../../src/adapters/sqlite/sqlite-api-key-store.js';
import type { ApiKeyId } from '../../src/domain/index.js';
import { commandsInTempDir, runCommand } from '../support/command-line.js';
import { createTestSchema, describeWithPostgres } from '../support/postgres.js';

const DIGEST = 'ab'.repeat(32);
const KEY_V2 = `{"kind":"apiKey","id":7,"digest":"${DIGEST}","callerId":"key-abababababababab","label":"old","createdAt":"2026-11-20T10:00:00.000Z","revokedAt":null}`;

type Listed = Array<Record<string, unknown>>;

describe('export, import and copy of scoped, expiring keys', () => {
  const { at, run } = commandsInTempDir();
  const listed = async (db: string): Promise<Listed> => JSON.parse(await run(['keys', 'list', '--json'], db)) as Listed;
  const withoutLastUse = (keys: Listed): Listed => keys.map((key) => ({ ...key, lastUsedAt: null }));

  /** A.db holding three keys: read-only expiring, every scope used, both scopes revoked. */
  async function seed(): Promise<Listed> {
    await run(['keys', 'create', '--label', 'reader', '--scope', 'pets:read', '--expires-in', '30d'], at('a.db'));
    await run(['keys', 'create', '--label', 'every'], at('a.db'));
    await run(['keys', 'create', '--label', 'gone', '--scope', 'pets:read', '--scope', 'pets:write'], at('a.db'));
    await run(['keys', 'revoke', '3'], at('a.db'));
    const db = openSqliteDatabase(at('a.db'));
    await new SqliteApiKeyStore(db).recordUse(2 as ApiKeyId, new Date());
    db.close();
    return listed(at('a.db'));
  }

  it('exports keys with their scopes and expiry, not their last use; import and copy restore them unused', async () => {
    const keys = await seed();
    expect(keys[1]!['lastUsedAt']).to.be.a('string');
    await run(['export', '--all', '--out', at('a.ndjson')], at('a.db'));
    const lines = readFileSync(at('a.ndjson'), 'utf8').trimEnd().split('\n');
    expect(JSON.parse(lines[0]!)).to.deep.include({ version: 4 });
    const exported = lines.slice(1).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(exported.map((line) => [line['label'], line['scopes'], line['expiresAt']])).to.deep.equal(
      keys.map((key) => [key['label'], key['scopes'], key['expiresAt']]),
    );
    expect(Object.keys(exported[0]!)).to.deep.equal([
      'kind',
      'id',
      'digest',
      'callerId',
      'label',
      'scopes',
      'createdAt',
      'expiresAt',
      'revokedAt',
    ]);

    await run(['import', at('a.ndjson')], at('b.db'));
    expect(await run(['import', at('a.ndjson')], at('b.db')), 'a second import changes nothing').to.contain('0 new, 3 stored already');
    await run(['copy', '--from', at('a.db'), '--to', at('c.db')], at('a.db'));
    for (const db of ['b.db', 'c.db']) expect(await listed(at(db)), db).to.deep.equal(withoutLastUse(keys));
  });

  it('imports the keys of a format version 2 file with every scope and no expiry, and exports them with their scopes and expiry', async () => {
    writeFileSync(at('v2.ndjson'), `{"format":"petstore-export","version":2,"petIdsIssued":0}\n${KEY_V2}\n`);
    await run(['import', at('v2.ndjson')], at('b.db'));
    const [key] = await listed(at('b.db'));
    expect([key!['id'], key!['scopes'], key!['expiresAt'], key!['lastUsedAt']]).to.deep.equal([7, 'all', null, null]);
    expect((await run(['export', '--all'], at('b.db'))).split('\n')[1]).to.equal(
      KEY_V2.replace('"createdAt"', '"scopes":"all","createdAt"').replace('"revokedAt"', '"expiresAt":null,"revokedAt"'),
    );
  });

  it('refuses a version 3 key line without its scopes, with unknown or no scopes, naming the line, with exit code 1', async () => {
    const v3 = (line: string) => `{"format":"petstore-export","version":3,"petIdsIssued":0}\n${line}\n`;
    const withScopes = (scopes: string) =>
      KEY_V2.replace('"createdAt"', `"scopes":${scopes},"createdAt"`).replace('"revokedAt"', '"expiresAt":null,"revokedAt"');
    for (const [line, message] of [
      [KEY_V2, 'line 2: /scopes is required; /expiresAt is required.'],
      [withScopes('["pets:read","pets:delete"]'), 'line 2: /scopes must be "all" or a list of at least one of pets:read, pets:write'],
      [withScopes('[]'), 'line 2: /scopes must be "all"'],
      [withScopes('"every"'), 'line 2: /scopes must be "all"'],
    ] as const) {
      writeFileSync(at('v3.ndjson'), v3(line));
      const result = await runCommand(['import', at('v3.ndjson')], { PETSTORE_DB: at('b.db') });
      expect([result.code, result.stderr.includes(message)], `${line}: ${result.stderr}`).to.deep.equal([1, true]);
    }
  });

  describeWithPostgres('to and from PostgreSQL', () => {
    it('copies keys with their scopes and expiry to PostgreSQL and back', async () => {
      const keys = await seed();
      const schema = await createTestSchema();
      try {
        await run(['copy', '--from', at('a.db'), '--to', schema.url], at('a.db'));
        expect(await listed(schema.url)).to.deep.equal(withoutLastUse(keys));
        await run(['copy', '--from', schema.url, '--to', at('d.db')], at('a.db'));
        expect(await listed(at('d.db'))).to.deep.equal(withoutLastUse(keys));
      } finally {
        await schema.drop();
      }
    });
  });
});
