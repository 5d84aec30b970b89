// The examples under examples/ are compiled with tsc against the built package (they import
// 'petstore-hexagon' as an integrator does; the package resolves itself through its exports)
// and run with plain node, each to its end, so they never rot.
import { execFile } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';

const run = promisify(execFile);
const OUT_DIR = join('.tmp', 'examples');

const runExample = async (name: string): Promise<string> => {
  const { stdout } = await run(process.execPath, [join(OUT_DIR, `${name}.js`)], {
    timeout: 30_000,
    env: { PATH: process.env['PATH'] ?? '' },
  });
  return stdout;
};

describe('the examples', function () {
  this.timeout(120_000);

  before(async () => {
    if (!existsSync(join('dist', 'index.d.ts'))) throw new Error('dist/ is missing: run "npm run build" first (npm test does)');
    rmSync(OUT_DIR, { recursive: true, force: true });
    await run(process.execPath, [join('node_modules', 'typescript', 'bin', 'tsc'), '-p', join('examples', 'tsconfig.json')]);
  });

  it('embed-in-koa: the service mounted under /petstore in a Koa app, called with the client', async () => {
    const out = await runExample('embed-in-koa');
    expect(out).to.match(/^API key 1 created for caller key-[0-9a-f]{16}$/m);
    expect(out).to.contain('pets under /petstore: Rex, Tom, Kitty');
    expect(out).to.contain('my own route: {"service":"my shop","petStore":"/petstore/v1"}');
  });

  it('use-cases-directly: the use cases on the memory adapter, without HTTP', async () => {
    const out = await runExample('use-cases-directly');
    expect(out.trimEnd().split('\n')).to.deep.equal([
      'created #1 Rex (available)',
      'created #2 Tom (sold)',
      'refused {"name":"","categoryId":"x"}: /name must not be empty; /categoryId must be an integer between -9007199254740991 and 9007199254740991',
      'available: Rex; more: false',
      'pet 42: pet_not_found',
    ]);
  });

  it('custom-adapter-in-test: a node:test suite that replaces the PetRepository and the Clock', async () => {
    const out = await runExample('custom-adapter-in-test');
    expect(out).to.match(/^# pass 2$/m);
    expect(out).to.match(/^# fail 0$/m);
  });
});
