// The package as an integrator gets it: `npm pack`, installed from the tarball into a new
// project, imported from plain JavaScript and type-checked from TypeScript, and the server
// started through the installed `petstore` binary.
//
// better-sqlite3 compiles from source on install (about 90 s here). To keep the suite fast,
// the project is installed with --ignore-scripts (every dependency still comes from the
// registry, through the npm cache that `npm ci` filled), and then gets the compiled
// better_sqlite3.node of this checkout when the installed better-sqlite3 is the same version
// (otherwise it is compiled with `npm rebuild`). PETSTORE_TEST_PACKAGE_FROM_SCRATCH=1 runs
// the install scripts, compiling SQLite, as an integrator's `npm install` does.
import { execFile, spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { baseUrlOf, type ServerProcess, stopIfRunning } from '../support/server-process.js';
import { tempDir } from '../support/temp-dir.js';

const exec = promisify(execFile);
const REPO = process.cwd();
const KEY = 'tarball-test-key-0123456789';
const FROM_SCRATCH = process.env['PETSTORE_TEST_PACKAGE_FROM_SCRATCH'] === '1';

/** Runs a command in `cwd` with this process's environment (npm needs its cache and config). */
const run = (file: string, args: readonly string[], cwd: string, env: Record<string, string> = {}) =>
  exec(file, [...args], { cwd, env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 });

// What an integrator writes in TypeScript; @ts-expect-error lines fail to compile if the types were `any`.
const CONSUMER_TS = `import { ApiKeyLabel, type ClientPet, createPetStore, NewPet, PetStoreError, startHttpServer } from 'petstore-hexagon';
import { PetStoreClient, type Pet } from 'petstore-hexagon/client';
import type Koa from 'koa';

const store = await createPetStore({ db: 'memory' });
const app: Koa = store.app;
const label = ApiKeyLabel.decode('typed');
if (label._tag === 'Left') throw new Error('label');
const { key } = await store.apiKeys.create(label.right);
const server = await startHttpServer(app.callback(), { host: '127.0.0.1', port: 0 });
const client = new PetStoreClient({ baseUrl: server.url + '/v1', apiKey: key });
const pet: Pet = await client.createPet({ name: 'Typed', categoryId: 1 });
const same: ClientPet = pet;
// @ts-expect-error 'lost' is not a PetStatus
await client.createPet({ name: 'x', categoryId: 1, status: 'lost' }).catch(() => undefined);
// @ts-expect-error createPetStore takes no such option
await createPetStore({ database: 'memory' }).catch(() => undefined);
const decoded = NewPet.decode({ name: 'Rex', categoryId: 1 });
if (decoded._tag === 'Right') await store.useCases.createPet(decoded.right)();
const failure: PetStoreError | undefined = undefined;
console.log(same.id, failure);
await server.close();
await store.close();
`;

describe('the package installed from its tarball', function () {
  this.timeout(FROM_SCRATCH ? 600_000 : 240_000);
  let dir: ReturnType<typeof tempDir>;
  let project: string;
  let serving: ServerProcess | undefined;

  before(async () => {
    dir = tempDir('petstore-package-');
    project = join(dir.path, 'project');
    // dist/ is fresh (npm test builds it): no need for the prepack build.
    await run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir.path], REPO);
    const tarball = readdirSync(dir.path).find((name) => name.endsWith('.tgz'))!;
    cpSync(join(REPO, 'test', 'package', 'consumer'), project, { recursive: true });
    writeFileSync(join(project, 'consumer.ts'), CONSUMER_TS);
    const scripts = FROM_SCRATCH ? [] : ['--ignore-scripts'];
    await run(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', ...scripts, join(dir.path, tarball), '@types/node@^20.19'],
      project,
    );
    if (!FROM_SCRATCH) await placeCompiledSqlite();
  });

  /** The checkout's compiled better-sqlite3 binary, into the project's same version of it; a rebuild otherwise. */
  async function placeCompiledSqlite(): Promise<void> {
    const versionIn = (root: string) =>
      (JSON.parse(readFileSync(join(root, 'node_modules', 'better-sqlite3', 'package.json'), 'utf8')) as { version: string }).version;
    if (versionIn(project) !== versionIn(REPO)) {
      await run('npm', ['rebuild', 'better-sqlite3'], project);
      return;
    }
    const release = join('node_modules', 'better-sqlite3', 'build', 'Release');
    mkdirSync(join(project, release), { recursive: true });
    cpSync(join(REPO, release, 'better_sqlite3.node'), join(project, release, 'better_sqlite3.node'));
  }
  after(async () => {
    await stopIfRunning(serving);
    dir.remove();
  });

  it('holds the built code, docs and examples, but no tests, sources or source maps', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], REPO);
    const files = (JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path);
    for (const needed of [
      'dist/index.js',
      'dist/index.d.ts',
      'dist/client/index.js',
      'dist/cli.js',
      'docs/openapi.yaml',
      'docs/errors.md',
      'docs/deprecations.md',
      'README.md',
      'examples/embed-in-koa.ts',
    ]) {
      expect(files, needed).to.include(needed);
    }
    expect(files.filter((f) => /^(test|src)\/|\.map$|\.tgz$|\.db$|tsconfig/.test(f))).to.deep.equal([]);
  });

  it('imports from plain JavaScript: the library and the client alone', async () => {
    const script = `
      const lib = await import('petstore-hexagon');
      const client = await import('petstore-hexagon/client');
      const store = await lib.createPetStore();
      const { key } = await store.apiKeys.create('');
      const server = await lib.startHttpServer(store.app.callback(), { host: '127.0.0.1', port: 0 });
      const api = new client.PetStoreClient({ baseUrl: server.url + '/v1', apiKey: key });
      const pet = await api.createPet({ name: 'Plain', categoryId: 7 });
      await server.close();
      await store.close();
      console.log(JSON.stringify({ pet, same: lib.PetStoreClient === client.PetStoreClient, fns: [typeof lib.createHttpApp, typeof lib.SqlitePetRepository] }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], project);
    expect(JSON.parse(stdout)).to.deep.equal({
      pet: { id: 1, name: 'Plain', categoryId: 7, status: 'available' },
      same: true,
      fns: ['function', 'function'],
    });
  });

  it('type-checks TypeScript that uses its declarations (and refuses what they forbid)', async () => {
    await run(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], project).catch(
      (err: { stdout: string }) => {
        throw new Error(`tsc failed:\n${err.stdout}`);
      },
    );
  });

  it('starts the server through the installed petstore binary, with keys made by the same binary', async () => {
    const bin = resolve(project, 'node_modules', '.bin', 'petstore');
    const env = { PETSTORE_DB: join(dir.path, 'data', 'petstore.db'), PORT: '0', HOST: '127.0.0.1', PETSTORE_API_KEYS: KEY };
    const created = await run(bin, ['keys', 'create', '--label', 'from the tarball', '--json'], project, env);
    const { key } = JSON.parse(created.stdout) as { key: string };

    const child = spawn(bin, ['serve'], { cwd: project, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    serving = { child, output: () => output, exited: new Promise((done) => child.on('exit', (code) => done(code))) };
    const url = await baseUrlOf(serving);
    for (const apiKey of [key, KEY]) {
      const res = await fetch(`${url}/pets`, { headers: { Authorization: `Bearer ${apiKey}` } });
      expect(res.status).to.equal(200);
    }
    const notes = await fetch(`${new URL(url).origin}/docs/deprecations`);
    expect(notes.status, 'docs/ ships with the package').to.equal(200);
    child.kill('SIGTERM');
    expect(await serving.exited).to.equal(0);

    const help = await run('npx', ['--no', 'petstore', 'help'], project);
    expect(help.stdout).to.contain('keys create');
  });
});
