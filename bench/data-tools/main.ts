// The data commands at scale (npm run bench:data): export, import into SQLite and copy to
// PostgreSQL of 100,000 and 1,000,000 pets, each as the compiled `petstore` command in a child
// process, in rows/s and the child's peak RSS (GNU time's maximum resident set size), with
// PostgreSQL's own COPY of the same rows beside as the reference. Not a test: it prints a table.
// PETSTORE_BENCH_POSTGRES_URL (or PETSTORE_TEST_POSTGRES_URL) names the PostgreSQL server; each
// run works in a schema of its own, dropped at the end. PETSTORE_BENCH_ROWS=100000,1000000.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openSqliteDatabase } from '../../src/adapters/sqlite/open-sqlite-database.js';

const CLI = join(process.cwd(), 'dist', 'cli.js');
const POSTGRES =
  process.env['PETSTORE_BENCH_POSTGRES_URL'] ?? process.env['PETSTORE_TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const SIZES = (process.env['PETSTORE_BENCH_ROWS'] ?? '100000,1000000').split(',').map(Number);
const STATUSES = ['available', 'pending', 'sold'];

interface Measure {
  readonly seconds: number;
  readonly peakRssMb: number;
}

/** Runs the compiled CLI under GNU time: wall time and the child's peak RSS. */
function runCli(args: readonly string[], env: Record<string, string>): Measure {
  const started = process.hrtime.bigint();
  const result = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, CLI, ...args, '--quiet'], {
    env: { PATH: process.env['PATH'] ?? '', ...env },
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0) throw new Error(`petstore ${args.join(' ')} failed (${result.status}):\n${result.stderr}`);
  const peakKb = Number(result.stderr.trim().split('\n').pop());
  return { seconds, peakRssMb: peakKb / 1024 };
}

function seed(path: string, rows: number): void {
  const db = openSqliteDatabase(path);
  db.pragma('synchronous = OFF');
  const insert = db.prepare('INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let i = 1; i <= rows; i += 1) insert.run(`pet number ${i}`, i % 100, STATUSES[i % 3]);
  })();
  db.close();
}

function schemaUrl(schema: string): string {
  const url = new URL(POSTGRES);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

/** PostgreSQL's own COPY FROM STDIN (psql \copy) of the same rows as CSV, into a table like pets. */
function referenceCopy(dir: string, rows: number, schema: string): Measure {
  const csv = join(dir, 'pets.csv');
  const lines: string[] = [];
  for (let i = 1; i <= rows; i += 1) lines.push(`${i},pet number ${i},${i % 100},${STATUSES[i % 3]}`);
  writeFileSync(csv, `${lines.join('\n')}\n`);
  execFileSync('psql', [
    POSTGRES,
    '-q',
    '-c',
    `CREATE TABLE ${schema}.pets_reference (id bigint PRIMARY KEY, name text NOT NULL, category_id bigint NOT NULL, status text NOT NULL)`,
  ]);
  const started = process.hrtime.bigint();
  const result = spawnSync(
    '/usr/bin/time',
    ['-f', '%M', 'psql', POSTGRES, '-q', '-c', `\\copy ${schema}.pets_reference FROM '${csv}' CSV`],
    { encoding: 'utf8' },
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0) throw new Error(`psql \\copy failed:\n${result.stderr}`);
  return { seconds, peakRssMb: Number(result.stderr.trim().split('\n').pop()) / 1024 };
}

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES });
  await admin.connect();
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`);
  console.log('| rows | step | seconds | rows/s | peak RSS (MB) |');
  console.log('|---:|---|---:|---:|---:|');
  for (const rows of SIZES) {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-data-'));
    const schema = `petstore_bench_data_${process.pid}_${rows}`;
    try {
      await admin.query(`CREATE SCHEMA ${schema}`);
      seed(join(dir, 'source.db'), rows);
      const steps: Array<[string, () => Measure]> = [
        [
          'export (SQLite → NDJSON file)',
          () => runCli(['export', '--out', join(dir, 'pets.ndjson')], { PETSTORE_DB: join(dir, 'source.db') }),
        ],
        [
          'import (NDJSON file → new SQLite file)',
          () => runCli(['import', join(dir, 'pets.ndjson')], { PETSTORE_DB: join(dir, 'imported.db') }),
        ],
        [
          'copy (SQLite → PostgreSQL, with both checksums)',
          () => runCli(['copy', '--from', join(dir, 'source.db'), '--to', schemaUrl(schema)], {}),
        ],
        ['reference: psql \\copy (CSV → PostgreSQL)', () => referenceCopy(dir, rows, schema)],
      ];
      for (const [step, run] of steps) {
        const { seconds, peakRssMb } = run();
        console.log(
          `| ${rows.toLocaleString('en')} | ${step} | ${seconds.toFixed(2)} | ${Math.round(rows / seconds).toLocaleString('en')} | ${peakRssMb.toFixed(0)} |`,
        );
      }
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      rmSync(dir, { recursive: true, force: true });
    }
  }
  await admin.end();
}

await main();
