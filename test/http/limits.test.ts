// The HTTP limits and timeouts, each with its documented value and the answer it gives, while
// the server keeps answering a well-behaved client. Short limits keep the tests fast; the
// defaults are checked against docs/configuration.md.
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { expect } from 'chai';
import { DEFAULT_BODY_LIMIT_BYTES } from '../../src/adapters/http/create-http-app.js';
import { DEFAULT_SERVER_LIMITS, type HttpServerLimits } from '../../src/adapters/http/http-server.js';
import { clientFor } from '../support/http-client.js';
import { parseRawAnswer } from '../support/raw-http.js';
import { startTestServer, TEST_API_KEY, type TestServer } from '../support/test-server.js';

const AUTH = `Authorization: Bearer ${TEST_API_KEY}\r\n`;

interface Conversation {
  readonly socket: Socket;
  /** Everything received so far. */
  received(): string;
  /** Resolves with everything received once the server has closed the connection. */
  readonly closed: Promise<string>;
}

/** A connection the test writes to at its own pace; never closed by the test before the server does. */
function converse(url: string): Conversation {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  return { socket, received: () => received, closed };
}

/** Writes `bytes` one at a time, `intervalMs` apart, until all are sent or the server closes. */
async function dribble(conversation: Conversation, bytes: string, intervalMs: number): Promise<void> {
  for (const byte of bytes) {
    if (conversation.socket.destroyed || conversation.socket.writableEnded || conversation.socket.readableEnded) return;
    conversation.socket.write(byte);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Keeps a well-behaved client busy until `done` settles; every one of its answers must be 200. */
async function wellBehavedClientDuring(url: string, done: Promise<unknown>): Promise<number> {
  const api = clientFor(url, TEST_API_KEY);
  let finished = false;
  void done.finally(() => (finished = true));
  let answered = 0;
  while (!finished) {
    expect((await api.get('/v1/pets')).status).to.equal(200);
    answered += 1;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return answered;
}

/** The first answer in a raw conversation, when there is one. */
const firstAnswer = (text: string) => parseRawAnswer(text);

describe('HTTP limits and timeouts', function () {
  this.timeout(30_000);
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const start = async (limits: Partial<HttpServerLimits> = {}) => {
    server = await startTestServer({ kind: 'memory' }, { limits });
    return server;
  };

  it('has the defaults docs/configuration.md documents', () => {
    const doc = readFileSync('docs/configuration.md', 'utf8');
    // Table cells may be padded to their column's width (Prettier aligns Markdown tables).
    const row = (option: string) => new RegExp(`\\|\\s*\`${option}\`\\s*\\|([^|]+)\\|`).exec(doc)?.[1]?.trim() ?? '';
    expect(row('bodyLimitBytes')).to.match(new RegExp(`^16 KiB \\(${DEFAULT_BODY_LIMIT_BYTES} bytes\\)`));
    expect(row('maxHeaderBytes')).to.equal(`16 KiB (${DEFAULT_SERVER_LIMITS.maxHeaderBytes} bytes)`);
    expect(row('headersTimeoutMs')).to.equal(`${DEFAULT_SERVER_LIMITS.headersTimeoutMs / 1000} s`);
    expect(row('requestTimeoutMs')).to.equal(`${DEFAULT_SERVER_LIMITS.requestTimeoutMs / 1000} s`);
    expect(row('keepAliveTimeoutMs')).to.equal(`${DEFAULT_SERVER_LIMITS.keepAliveTimeoutMs / 1000} s`);
    expect(row('socketIdleTimeoutMs')).to.equal(`${DEFAULT_SERVER_LIMITS.socketIdleTimeoutMs / 1000} s`);
    expect(row('shutdownGraceMs')).to.equal(`${DEFAULT_SERVER_LIMITS.shutdownGraceMs / 1000} s`);
  });

  it('answers a body that stops coming with 408 before the idle cut, the default idle and request timeouts scaled to a second', async () => {
    const scale = 1000 / DEFAULT_SERVER_LIMITS.requestTimeoutMs;
    const { url } = await start({
      headersTimeoutMs: Math.round(DEFAULT_SERVER_LIMITS.headersTimeoutMs * scale),
      requestTimeoutMs: 1000,
      socketIdleTimeoutMs: Math.round(DEFAULT_SERVER_LIMITS.socketIdleTimeoutMs * scale),
    });
    const stalled = converse(url);
    stalled.socket.write(
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`,
    );
    const answer = await stalled.closed;
    expect(answer).to.match(/^HTTP\/1\.1 408 /);
    expect(answer).to.contain('"code":"request_timeout"');
  });

  it('answers slow-loris clients (a head that never ends) with 408 and closes them, serving others meanwhile', async () => {
    const { url } = await start({ headersTimeoutMs: 600, requestTimeoutMs: 1200 });
    const head = `GET /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH}X-Slow: ${'z'.repeat(200)}\r\n\r\n`;
    const lorises = Array.from({ length: 10 }, () => converse(url));
    for (const loris of lorises) void dribble(loris, head, 25);
    const all = Promise.all(lorises.map((loris) => loris.closed));
    expect(await wellBehavedClientDuring(url, all)).to.be.greaterThan(0);
    for (const text of await all) {
      const answer = firstAnswer(text);
      expect(answer.status, text).to.equal(408);
      expect(answer.json).to.deep.include({ code: 'request_timeout', status: 408 });
      expect(answer.headers).to.match(/connection: close/i);
    }
  });

  it('answers a body sent too slowly with 408 once the request time is up, serving others meanwhile', async () => {
    const { url } = await start({ headersTimeoutMs: 500, requestTimeoutMs: 1000 });
    const body = '{"name":"Slowly","categoryId":1}';
    const slow = converse(url);
    slow.socket.write(
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    void dribble(slow, body, 100); // 3.2 s for the whole body: past the 1 s limit
    expect(await wellBehavedClientDuring(url, slow.closed)).to.be.greaterThan(0);
    const answer = firstAnswer(await slow.closed);
    expect(answer.json).to.deep.include({ code: 'request_timeout', status: 408 });
    expect((await clientFor(url, TEST_API_KEY).get('/v1/pets')).json, 'nothing was created').to.deep.equal([]);
  });

  it('answers headers over the limit with 431 and a body over the limit with 413, serving others meanwhile', async () => {
    const { url } = await start({ maxHeaderBytes: 4096 });
    const bigHead = converse(url);
    bigHead.socket.write(`GET /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH}X-Big: ${'a'.repeat(5000)}\r\n\r\n`);
    const bigBody = converse(url);
    // Chunked: no length is declared, so the limit is found while reading.
    bigBody.socket.write(
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`,
    );
    const chunk = `{"name":"${'b'.repeat(DEFAULT_BODY_LIMIT_BYTES)}`;
    bigBody.socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    const both = Promise.all([bigHead.closed, bigBody.closed]);
    await wellBehavedClientDuring(url, both);
    const [head, body] = (await both).map(firstAnswer);
    expect(head!.status).to.equal(431);
    expect(head!.json).to.deep.include({ code: 'headers_too_large', status: 431 });
    expect(body!.status).to.equal(413);
    expect(body!.json).to.deep.include({ code: 'payload_too_large', status: 413 });
  });

  it('announces the keep-alive timeout and closes a connection left idle that long, not before', async () => {
    const defaults = await start();
    const announced = converse(defaults.url);
    announced.socket.write(`GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`);
    while (!announced.received().includes('\r\n\r\n')) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(announced.received()).to.match(new RegExp(`keep-alive: timeout=${DEFAULT_SERVER_LIMITS.keepAliveTimeoutMs / 1000}\\r\\n`, 'i'));
    announced.socket.destroy();
    await defaults.close();

    const { url } = await start({ keepAliveTimeoutMs: 1000 });
    const idle = converse(url);
    const ask = () => idle.socket.write(`GET /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n`);
    const answers = () => idle.received().split('HTTP/1.1 200 OK').length - 1;
    ask();
    while (answers() < 1) await new Promise((resolve) => setTimeout(resolve, 10));
    // Used again within the timeout, the connection is still open and serves a second request.
    await new Promise((resolve) => setTimeout(resolve, 200));
    ask();
    while (answers() < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(idle.received()).to.match(/keep-alive: timeout=1\r\n/i);
    // Then left idle: the server closes it, while it keeps serving others.
    await wellBehavedClientDuring(url, idle.closed);
    expect(answers()).to.equal(2);
  });

  it('cuts a connection whose client stops reading its answers (slow read), serving others meanwhile', async () => {
    const { url } = await start({ socketIdleTimeoutMs: 800 });
    const reader = converse(url);
    // Pipelined requests for a large file: read in full, they would be about 60 MB.
    const requests = 40;
    reader.socket.write('GET /docs/assets/swagger-ui-bundle.js HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(requests));
    reader.socket.pause();
    // Not reading for well over the limit: the server's writes block, and it cuts the connection.
    // (A paused socket cannot see that; it does once it reads again.)
    const stalled = new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await wellBehavedClientDuring(url, stalled)).to.be.greaterThan(0);
    reader.socket.resume();
    const received = await reader.closed;
    const bundle = (await clientFor(url, TEST_API_KEY).get('/docs/assets/swagger-ui-bundle.js')).text.length;
    expect(received.length, 'the answers were cut off').to.be.below(requests * bundle);
  });
});
