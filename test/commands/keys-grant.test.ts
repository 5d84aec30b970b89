// `petstore keys create` with scopes and an expiry, and `keys list` showing them with the last
// use, in this process on a real SQLite file; every misuse refused with exit code 2 before the
// database is opened.
import { readdirSync } from 'node:fs';
import { expect } from 'chai';
import { openSqliteDatabase } from '../../src/adapters/sqlite/open-sqlite-database.js';
import { SqliteApiKeyStore } from '../../src/adapters/sqlite/sqlite-api-key-store.js';
import type { ApiKeyId } from '../../src/domain/index.js';
import { durationMs, isoTime } from '../../src/commands/support/key-grant-options.js';
import { commandsOnAFreshFile, runCommand } from '../support/command-line.js';

const DAY_MS = 86_400_000;
/** A time about a year ahead, on the minute (the expiry may be at most 3,650 days ahead). */
const NEXT_YEAR = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 365 * DAY_MS);
/** The same time as written with an offset of +02:00. */
const withOffset = (time: Date): string => `${new Date(time.getTime() + 2 * 3_600_000).toISOString().slice(0, 16)}+02:00`;

describe('petstore keys: scopes and expiry', () => {
  const file = commandsOnAFreshFile();

  const created = async (args: readonly string[]) => {
    const result = await runCommand(['keys', 'create', ...args], file.env);
    expect(result.code, result.stderr).to.equal(0);
    return result.stdout;
  };

  it('gives every scope, and no expiry, without --scope or an expiry, and says so', async () => {
    const text = await created([]);
    expect(text).to.contain(
      'Scopes: every scope, those of later releases too (today pets:read, pets:write, categories:read, categories:write, orders:read, orders:write, store:read).\nExpires: never.\n',
    );
    const json = JSON.parse(await created(['--json'])) as Record<string, unknown>;
    expect([json['scopes'], json['expiresAt'], json['lastUsedAt']]).to.deep.equal(['all', null, null]);
  });

  it('gives the scopes named, each once, and an expiry after --expires-in', async () => {
    const before = Date.now();
    const json = JSON.parse(
      await created(['--scope', 'pets:write', '--scope', 'pets:read', '--scope', 'pets:write', '--expires-in', '90d', '--json']),
    ) as {
      scopes: string[];
      createdAt: string;
      expiresAt: string;
    };
    expect(json.scopes).to.deep.equal(['pets:read', 'pets:write']);
    expect(Date.parse(json.expiresAt) - Date.parse(json.createdAt)).to.equal(90 * DAY_MS);
    expect(Date.parse(json.createdAt)).to.be.at.least(before);
    const text = await created(['--scope', 'pets:read', '--expires-at', withOffset(NEXT_YEAR), '--label', 'reader']);
    expect(text).to.match(/^Created API key 2 \("reader"\), caller key-[0-9a-f]{16}\.\nScopes: pets:read\.\n/);
    expect(text).to.contain(`\nExpires: ${NEXT_YEAR.toISOString()}.\n`);
  });

  it('lists scopes, creation, expiry and last use to the minute, and the full times in JSON', async () => {
    const expiresAt = new Date(NEXT_YEAR.getTime() + 5_678);
    await created(['--scope', 'pets:read', '--expires-at', expiresAt.toISOString(), '--label', 'reader']);
    await created(['--label', 'every']);
    const db = openSqliteDatabase(file.env['PETSTORE_DB']!);
    try {
      await new SqliteApiKeyStore(db).recordUse(2 as ApiKeyId, new Date('2098-12-31T23:59:30.000Z'));
    } finally {
      db.close();
    }
    const listed = await runCommand(['keys', 'list'], file.env);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines[0]).to.match(/^ID +LABEL +CALLER +SCOPES +CREATED +EXPIRES +LAST USED +REVOKED$/);
    expect(lines[1]).to.match(
      new RegExp(
        `^1 +reader +key-[0-9a-f]{16} +pets:read +\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\dZ +${NEXT_YEAR.toISOString().slice(0, 16)}Z +never +-$`,
      ),
    );
    expect(lines[2]).to.match(/^2 +every +key-[0-9a-f]{16} +all +\d{4}-\d\d-\d\dT\d\d:\d\dZ +never +2098-12-31T23:59Z +-$/);
    const json = JSON.parse((await runCommand(['keys', 'list', '--json'], file.env)).stdout) as Array<Record<string, unknown>>;
    expect(json.map((key) => [key['scopes'], key['expiresAt'], key['lastUsedAt']])).to.deep.equal([
      [['pets:read'], expiresAt.toISOString(), null],
      ['all', null, '2098-12-31T23:59:30.000Z'],
    ]);
  });

  it('refuses an unknown scope, a bad duration or time, one out of bounds, or both, with 2 and nothing made', async () => {
    const cases: ReadonlyArray<readonly [readonly string[], string]> = [
      [
        ['--scope', 'pets:delete'],
        'petstore: --scope "pets:delete" is not a scope; the scopes are pets:read, pets:write, categories:read, categories:write, orders:read, orders:write, store:read\n',
      ],
      [
        ['--scope', 'pets:read', '--scope', ''],
        'petstore: --scope "" is not a scope; the scopes are pets:read, pets:write, categories:read, categories:write, orders:read, orders:write, store:read\n',
      ],
      [
        ['--expires-in', '3 weeks'],
        'petstore: --expires-in takes a number and a unit, d (days), h (hours) or m (minutes), such as 90d, not "3 weeks"\n',
      ],
      [
        ['--expires-in', '0m'],
        'petstore: --expires-in takes a number and a unit, d (days), h (hours) or m (minutes), such as 90d, not "0m"\n',
      ],
      [['--expires-in', '3651d'], 'petstore: --expires-in 3651d: the expiry must be at most 3650 days from now\n'],
      [
        ['--expires-at', '2020-01-01T00:00:00Z'],
        'petstore: --expires-at 2020-01-01T00:00:00Z: the expiry must be at least a minute from now\n',
      ],
      [
        ['--expires-at', '2099-02-30T00:00Z'],
        'petstore: --expires-at takes an ISO 8601 time with its offset, such as 2031-01-01T00:00:00Z, not "2099-02-30T00:00Z"\n',
      ],
      [
        ['--expires-at', '2099-01-01T00:00'],
        'petstore: --expires-at takes an ISO 8601 time with its offset, such as 2031-01-01T00:00:00Z, not "2099-01-01T00:00"\n',
      ],
      [['--expires-in', '1d', '--expires-at', '2099-01-01T00:00Z'], 'petstore: give --expires-in or --expires-at, not both\n'],
    ];
    for (const [args, message] of cases) {
      const result = await runCommand(['keys', 'create', ...args], file.env);
      expect([result.code, result.stdout, result.stderr], args.join(' ')).to.deep.equal([2, '', message]);
    }
    for (const args of [
      ['list', '--scope', 'pets:read'],
      ['revoke', '1', '--expires-in', '1d'],
    ]) {
      const result = await runCommand(['keys', ...args], file.env);
      expect(result.code, args.join(' ')).to.equal(2);
    }
    expect(readdirSync(file.dir), 'arguments are checked before the database is opened, or made').to.deep.equal([]);
  });
});

describe('the durations and times of keys create', () => {
  it('reads days, hours and minutes, whole and positive', () => {
    expect(['90d', '12h', '30m', '1m', '9999999d'].map(durationMs)).to.deep.equal([
      90 * DAY_MS,
      12 * 3_600_000,
      30 * 60_000,
      60_000,
      9_999_999 * DAY_MS,
    ]);
    for (const text of ['', '90', 'd', '1.5d', '-1d', '01d', '1w', '1D', ' 1d', '10000000d'])
      expect(durationMs(text), text).to.equal(undefined);
  });

  it('reads ISO 8601 times with their offset, of a real day and time', () => {
    expect(isoTime('2031-01-01T09:00+09:00')).to.deep.equal(new Date('2031-01-01T00:00:00.000Z'));
    expect(isoTime('2032-02-29T23:59:59.5Z')).to.deep.equal(new Date('2032-02-29T23:59:59.500Z'));
    for (const text of ['2031-02-29T00:00Z', '2031-01-01T24:00Z', '2031-01-01T00:60Z', '2031-01-01', '2031-01-01T00:00', 'tomorrow']) {
      expect(isoTime(text), text).to.equal(undefined);
    }
  });
});
