// A request whose Transfer-Encoding is not chunked alone (RFC 9112 §6.1): Node frames a body
// whose last coding is chunked and hands on its bytes still coded, so `gzip, chunked` with a
// plain JSON chunk created a pet. It is now answered 501 before routing and authentication,
// with none of its body read, and the connection is closed.
import { connect } from 'node:net';
import { expect } from 'chai';
import { expectError } from '../support/expect-error.js';
import { assertDocumented } from '../support/openapi-contract.js';
import { rawExchange, rawRequest } from '../support/raw-http.js';
import { memoryDatabase, serveEachTest, TEST_API_KEY } from '../support/test-server.js';

const BODY = '{"name":"Coded","categoryId":1}';
const CHUNKED_BODY = `${BODY.length.toString(16)}\r\n${BODY}\r\n0\r\n\r\n`;

/** The head of a request with these Transfer-Encoding lines, and no Connection header. */
const head = (method: string, path: string, codings: readonly string[], extra = `Authorization: Bearer ${TEST_API_KEY}\r\n`): string =>
  `${method} ${path} HTTP/1.1\r\nHost: x\r\n${extra}Content-Type: application/json\r\n` +
  `${codings.map((coding) => `Transfer-Encoding: ${coding}\r\n`).join('')}\r\n`;

describe('a request with a transfer coding other than chunked', () => {
  const live = serveEachTest(memoryDatabase);

  it('is answered 501 unsupported_transfer_coding, documented, closing the connection, and creates nothing', async () => {
    for (const codings of [
      ['gzip, chunked'],
      ['GZip, Chunked'],
      ['deflate, chunked'],
      ['identity, chunked'],
      ['x-unknown, chunked'],
      ['gzip', 'chunked'],
    ]) {
      const res = await rawRequest(live.server.url, head('POST', '/v1/pets', codings) + CHUNKED_BODY);
      expectError(res, 501, 'unsupported_transfer_coding');
      expect(res.json.message, codings.join(' / ')).to.contain('Transfer-Encoding: chunked');
      expect(res.headers['connection']).to.equal('close');
      await assertDocumented('POST', `${live.server.url}/v1/pets`, res);
    }
    expect((await live.api.get('/v1/pets')).json).to.deep.equal([]);
  });

  it('is answered before routing and authentication: a bad key, an unknown path or an open endpoint gets the same 501', async () => {
    for (const [method, path, extra] of [
      ['POST', '/v1/pets', 'Authorization: Bearer unknown-key-0123456789\r\n'],
      ['POST', '/v1/pets', ''],
      ['GET', '/healthz', ''],
      ['POST', '/no/such/path', ''],
    ] as const) {
      const res = await rawRequest(live.server.url, head(method, path, ['gzip, chunked'], extra) + CHUNKED_BODY);
      expectError(res, 501, 'unsupported_transfer_coding');
      expect(res.headers['www-authenticate'], path).to.equal(undefined);
    }
  });

  it('reads none of the body: the answer comes with the head alone, and the pipelined request after it is not served', async () => {
    const { port } = new URL(live.server.url);
    const socket = connect(Number(port), '127.0.0.1');
    const received = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      socket.on('close', () => resolve(text));
      // A server that waits for the body would hold the connection: cut it, with whatever came.
      setTimeout(() => socket.destroy(), 5000).unref();
    });
    // Only the head: the body never comes, and the server neither waits for it nor keeps the connection.
    socket.write(head('POST', '/v1/pets', ['gzip, chunked']));
    const text = await received;
    expect(text).to.match(/^HTTP\/1\.1 501 Not Implemented\r\n/);
    expect(text.match(/HTTP\/1\.1 /g)).to.have.length(1);

    // With 100-continue, the client is not asked for the body at all.
    const waiting = await rawExchange(
      live.server.url,
      `${head('POST', '/v1/pets', ['gzip, chunked']).slice(0, -2)}Expect: 100-continue\r\n\r\n`,
    );
    expect(waiting).to.match(/^HTTP\/1\.1 501 Not Implemented\r\n/);
    expect(waiting).not.to.contain('100 Continue');

    // A second request pipelined behind the refused one is not served either: the connection closes after the 501.
    const pipelined = await rawExchange(
      live.server.url,
      head('POST', '/v1/pets', ['gzip, chunked']) + CHUNKED_BODY + `GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    expect(pipelined.match(/HTTP\/1\.1 /g)).to.have.length(1);
  });

  it('still serves chunked alone, in any letter case and with empty list elements, and Content-Length', async () => {
    for (const codings of [['chunked'], ['Chunked'], [', chunked']]) {
      const res = await rawRequest(live.server.url, head('POST', '/v1/pets', codings) + CHUNKED_BODY);
      expect(res.status, `${codings.join(' / ')}: ${res.text}`).to.equal(201);
    }
    expect((await live.api.postJson('/v1/pets', BODY)).status).to.equal(201);
    expect((await live.api.get('/v1/pets')).json).to.have.length(4);
  });
});
