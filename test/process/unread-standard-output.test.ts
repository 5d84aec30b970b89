// The compiled server whose standard output nobody reads any more (`npm start | head -1`, a log
// shipper that died): it goes on serving, and SIGTERM still ends it with exit code 0 once the
// requests in flight are answered. The lines it cannot write are lost; its exit does not wait for them.
import { connect } from 'node:net';
import { join } from 'node:path';
import { expect } from 'chai';
import { freePort } from '../support/child-server.js';
import { parseRawAnswer, rawExchange } from '../support/raw-http.js';
import { baseUrlOf, type ServerProcess, spawnServer, stopIfRunning, waitForOutput } from '../support/server-process.js';
import { tempDir } from '../support/temp-dir.js';

const KEY = 'unread-output-test-key-0123456789';

/**
 * Closes the reading end of the server's standard output as soon as its output matches
 * `pattern`. The server writes its lines in batches 100 ms apart: closed as one batch arrives,
 * the pipe breaks before the server's next write, so the lines logged after (a request's, the
 * stop's) are still waiting when it exits.
 */
function closeOutputOn(server: ServerProcess, pattern: RegExp): Promise<void> {
  return new Promise((resolve) => {
    const stdout = server.child.stdout!;
    const check = (): void => {
      if (!pattern.test(server.output())) return;
      stdout.off('data', check);
      stdout.destroy();
      resolve();
    };
    stdout.on('data', check);
    check();
  });
}

const healthz = async (origin: string): Promise<number> =>
  parseRawAnswer(await rawExchange(origin, 'GET /healthz HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n')).status;

/**
 * A POST whose head is sent with `Expect: 100-continue`: it resolves once the server has read
 * the head (the request is in flight), and `finish` sends the body and resolves with the status.
 */
function startUpload(origin: string, body: string): Promise<{ finish: () => Promise<number> }> {
  const { hostname, port } = new URL(origin);
  const socket = connect(Number(port), hostname);
  let answer = '';
  const closed = new Promise<string>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
  });
  return new Promise((resolve, reject) => {
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('utf8');
      if (!answer.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) return;
      answer = answer.slice('HTTP/1.1 100 Continue\r\n\r\n'.length);
      const finish = async (): Promise<number> => {
        socket.write(body);
        return Number((await closed).split(' ')[1]);
      };
      resolve({ finish });
    });
    socket.write(
      'POST /v1/pets HTTP/1.1\r\nHost: test\r\nConnection: close\r\nExpect: 100-continue\r\n' +
        `Authorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
  });
}

describe('the compiled server when nobody reads its standard output', function () {
  this.timeout(30_000);
  let dir: ReturnType<typeof tempDir>;
  let running: ServerProcess | undefined;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(async () => {
    await stopIfRunning(running);
    running = undefined;
    dir.remove();
  });

  it('exits 0 on SIGTERM with a request line and the stop lines still to write', async () => {
    running = spawnServer({ PETSTORE_DB: 'memory', PETSTORE_API_KEYS: KEY });
    const origin = new URL(await baseUrlOf(running)).origin;
    const closed = closeOutputOn(running, /"msg":"request"/);
    expect(await healthz(origin)).to.equal(200);
    await closed;
    expect(await healthz(origin)).to.equal(200);
    running.child.kill('SIGTERM');
    expect(await running.exited).to.equal(0);
  });

  it('answers a request in flight, then exits 0 on SIGTERM, when the reader goes during the stop', async () => {
    running = spawnServer({ PETSTORE_DB: 'memory', PETSTORE_API_KEYS: KEY });
    const upload = await startUpload(new URL(await baseUrlOf(running)).origin, JSON.stringify({ name: 'In flight', categoryId: 1 }));
    const closed = closeOutputOn(running, /"msg":"stopping: finishing requests in flight"/);
    running.child.kill('SIGTERM');
    await closed;
    expect(await upload.finish()).to.equal(201);
    expect(await running.exited).to.equal(0);
  });

  it('with PETSTORE_WORKERS=2: the primary and its workers all stop, and the primary exits 0', async () => {
    running = spawnServer({ PETSTORE_DB: join(dir.path, 'petstore.db'), PETSTORE_API_KEYS: KEY, PETSTORE_WORKERS: '2' });
    const origin = new URL(await baseUrlOf(running)).origin;
    await waitForOutput(running, /"msg":"all workers listening"/);
    // Closed as the line of the worker that answered arrives: that worker's stop lines are still to write when it exits.
    const closed = closeOutputOn(running, /"msg":"request"/);
    expect(await healthz(origin)).to.equal(200);
    await closed;
    running.child.kill('SIGTERM');
    expect(await running.exited).to.equal(0);
  });

  it('serves when the generated key cannot be printed, and exits 0 on SIGTERM', async () => {
    const port = await freePort();
    running = spawnServer({ PETSTORE_DB: 'memory', PORT: String(port) });
    running.child.stdout!.destroy();
    const origin = `http://127.0.0.1:${port}`;
    let status = 0;
    while (status !== 200 && running.child.exitCode === null) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      status = await healthz(origin).catch(() => 0);
    }
    expect(status, 'the server answers').to.equal(200);
    running.child.kill('SIGTERM');
    expect(await running.exited).to.equal(0);
  });
});
