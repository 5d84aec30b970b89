// The bench's patch-status scenario (bench/scenarios/scenarios.ts): only changes the status rule
// allows, sent as merge patches by the load generator, and skipped on a server without PATCH.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seededStatus } from '../../bench/databases/seed.js';
import { requestLine, wrkGenerator } from '../../bench/harness/wrk-load.js';
import { type BenchRequest, MERGE_PATCH_TYPE, patchStatus, unsoldId } from '../../bench/scenarios/scenarios.js';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly contentType: string | undefined;
  readonly body: string;
}

/** A server answering every request with `status`, keeping what it was sent. */
async function recordingServer(status: number): Promise<{ origin: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (seen.length < 1000) seen.push({ method: req.method ?? '', url: req.url ?? '', contentType: req.headers['content-type'], body });
      res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

const close = (server: Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));
const headers = { authorization: 'Bearer bench-key-0123456789abcdef' };

describe('bench: the patch-status scenario', () => {
  it('draws only pets seeded other than sold, uniformly among them', () => {
    let state = 0;
    const random = (): number => (state = (state + 0.6180339887) % 1);
    const ids = Array.from({ length: 3000 }, () => unsoldId(random, 300));
    expect(ids.every((id) => id >= 1 && id <= 300 && seededStatus(id) !== 'sold')).to.equal(true);
    expect(new Set(ids).size).to.equal(200);
  });

  it('sends merge patches of available or pending, with no If-Match, to a server that has PATCH', async () => {
    const { origin, seen, server } = await recordingServer(200);
    try {
      const prepared = await patchStatus.prepare({ origin, headers, pets: 1000 });
      if (!('requests' in prepared)) throw new Error(`skipped: ${prepared.skipped}`);
      // The one request of the check: pet 1, seeded pending, set pending.
      expect(seen).to.deep.equal([{ method: 'PATCH', url: '/v1/pets/1', contentType: MERGE_PATCH_TYPE, body: '{"status":"pending"}' }]);
      const statuses = prepared.requests.map((r) => (JSON.parse(r.body!) as { status: string }).status);
      expect(new Set(statuses)).to.deep.equal(new Set(['available', 'pending']));
      const available = statuses.filter((s) => s === 'available').length / statuses.length;
      expect(available).to.be.within(0.45, 0.55);
      for (const request of prepared.requests.slice(0, 500)) {
        expect(request).to.include({ method: 'PATCH', contentType: MERGE_PATCH_TYPE });
        expect(seededStatus(Number(/^\/v1\/pets\/(\d+)$/.exec(request.path)![1]))).to.not.equal('sold');
      }
    } finally {
      await close(server);
    }
  });

  it('is skipped, with the reason, on a server that has no PATCH', async () => {
    const { origin, server } = await recordingServer(405);
    try {
      expect(await patchStatus.prepare({ origin, headers, pets: 1000 })).to.deep.equal({
        skipped: 'the server has no PATCH /v1/pets/{petId} (it answered 405)',
      });
    } finally {
      await close(server);
    }
  });

  it("writes a request's content type before its body for wrk, JSON when it names none", () => {
    expect(requestLine({ method: 'GET', path: '/v1/pets/7' })).to.equal('GET /v1/pets/7');
    expect(requestLine({ method: 'POST', path: '/v1/pets', body: '{"name":"a b"}' })).to.equal(
      'POST /v1/pets application/json {"name":"a b"}',
    );
    const patch: BenchRequest = { method: 'PATCH', path: '/v1/pets/7', body: '{"status":"sold"}', contentType: MERGE_PATCH_TYPE };
    expect(requestLine(patch)).to.equal(`PATCH /v1/pets/7 ${MERGE_PATCH_TYPE} {"status":"sold"}`);
  });

  const wrk = spawnSync('wrk', ['-v']).error === undefined ? 'wrk' : undefined;
  (wrk === undefined ? it.skip : it)('has wrk send each method, content type and body of the list (1 s of wrk)', async () => {
    const { origin, seen, server } = await recordingServer(200);
    const workDir = mkdtempSync(join(tmpdir(), 'bench-wrk-'));
    try {
      const requests: BenchRequest[] = [
        { method: 'PATCH', path: '/v1/pets/4', body: '{"status":"available"}', contentType: MERGE_PATCH_TYPE },
        { method: 'POST', path: '/v1/pets', body: '{"name":"Rex two","categoryId":1}' },
        { method: 'GET', path: '/v1/pets/5' },
      ];
      const generator = wrkGenerator(wrk!, 'under test', workDir);
      const result = await generator.run({ origin, requests, headers, expectedStatus: 200, connections: 1, seconds: 1 });
      expect(result.failures).to.equal(0);
      // wrk asks the script for one request of its own before it connects: the turns start one further on.
      expect(seen.slice(0, 3)).to.have.deep.members([
        { method: 'PATCH', url: '/v1/pets/4', contentType: MERGE_PATCH_TYPE, body: '{"status":"available"}' },
        { method: 'POST', url: '/v1/pets', contentType: 'application/json', body: '{"name":"Rex two","categoryId":1}' },
        { method: 'GET', url: '/v1/pets/5', contentType: undefined, body: '' },
      ]);
    } finally {
      await close(server);
      rmSync(workDir, { recursive: true, force: true });
    }
  });
});
