// How the body of POST /v1/pets is read: its bytes must be UTF-8 (never stored with
// replacement characters), its Content-Encoding is undone, and the size limit counts the
// decoded bytes.
import { connect } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { pino } from 'pino';
import { expectError } from '../support/expect-error.js';
import { parseRawAnswer, rawExchange } from '../support/raw-http.js';
import { memoryDatabase, serveEachTest, startTestServer, TEST_API_KEY } from '../support/test-server.js';

/** A NewPet as bytes, with `nameBytes` as the name's bytes between its quotes. */
const bodyWithName = (nameBytes: Buffer): Buffer => Buffer.concat([Buffer.from('{"name":"'), nameBytes, Buffer.from('","categoryId":1}')]);

// Byte sequences that are not UTF-8, each for its own reason (RFC 3629 §3 and §4).
const INVALID_UTF8: Record<string, number[]> = {
  'a lone continuation byte': [0x80],
  'a byte never used (0xff)': [0xff],
  'a byte never used (0xc0)': [0xc0, 0xaf],
  'an overlong "/"': [0xe0, 0x80, 0xaf],
  'an encoded surrogate (U+D800)': [0xed, 0xa0, 0x80],
  'a code point above U+10FFFF': [0xf4, 0x90, 0x80, 0x80],
  'a five-byte form': [0xf8, 0x88, 0x80, 0x80, 0x80],
  'a character cut short': [0xe2, 0x82],
  'Latin-1 text (caf\\xe9)': [0x63, 0x61, 0x66, 0xe9],
};

describe('reading the request body', () => {
  const live = serveEachTest(memoryDatabase);

  const post = (body: Buffer, headers: Record<string, string> = {}) =>
    live.api.send('/v1/pets', { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });

  it('refuses every kind of invalid UTF-8 with 400 invalid_utf8, and stores nothing', async () => {
    const before = await post(bodyWithName(Buffer.from('before')));
    for (const [why, bytes] of Object.entries(INVALID_UTF8)) {
      const res = await post(bodyWithName(Buffer.from(bytes)));
      expectError(res, 400, 'invalid_utf8');
      expect(res.json.message, why).to.contain('UTF-8');
    }
    // A body that ends inside a character, after the JSON would have ended.
    expectError(await post(Buffer.concat([bodyWithName(Buffer.from('x')), Buffer.from([0xf0, 0x9f])])), 400, 'invalid_utf8');
    // Whatever charset is named: JSON is UTF-8.
    expectError(
      await post(bodyWithName(Buffer.from([0xe9])), { 'Content-Type': 'application/json; charset=iso-8859-1' }),
      400,
      'invalid_utf8',
    );
    const after = await post(bodyWithName(Buffer.from('after')));
    expect(after.json.id, 'no pet was created in between').to.equal(before.json.id + 1);
    const names = (await live.api.get('/v1/pets?limit=100')).json.map((pet: { name: string }) => pet.name);
    expect(names).to.deep.equal(['before', 'after']);
  });

  it('stores valid UTF-8 exactly as sent: 2-, 3- and 4-byte characters, U+FFFD itself, and escapes', async () => {
    for (const name of ['Zoë', '猫', '🐕‍🦺', 'replacement \uFFFD sent on purpose', '\u{10FFFF}']) {
      const res = await post(bodyWithName(Buffer.from(name, 'utf8')));
      expect(res.status, name).to.equal(201);
      expect(res.json.name).to.equal(name);
      expect((await live.api.get(`/v1/pets/${res.json.id}`)).json.name).to.equal(name);
    }
    const escaped = await post(Buffer.from('{"name":"caf\\u00e9","categoryId":1}'));
    expect(escaped.json.name).to.equal('café');
  });

  it('accepts a body in gzip, deflate or br, in any letter case, and checks its decoded bytes', async () => {
    const body = Buffer.from(JSON.stringify({ name: 'Squeezed', categoryId: 3 }));
    for (const [encoding, compressed] of [
      ['gzip', gzipSync(body)],
      ['deflate', deflateSync(body)],
      ['br', brotliCompressSync(body)],
      ['GZip', gzipSync(body)],
    ] as const) {
      const res = await post(compressed, { 'Content-Encoding': encoding });
      expect(res.status, `${encoding}: ${res.text}`).to.equal(201);
      expect(res.json).to.deep.include({ name: 'Squeezed', categoryId: 3 });
    }
    expectError(await post(gzipSync(bodyWithName(Buffer.from([0xff]))), { 'Content-Encoding': 'gzip' }), 400, 'invalid_utf8');
  });

  it('refuses an unknown Content-Encoding with 415 and a corrupt compressed body with 400', async () => {
    const body = Buffer.from(JSON.stringify({ name: 'a', categoryId: 1 }));
    for (const encoding of ['compress', 'zstd', 'gzip, br']) {
      expectError(await post(body, { 'Content-Encoding': encoding }), 415, 'unsupported_media_type');
    }
    expectError(await post(Buffer.from('not gzip at all'), { 'Content-Encoding': 'gzip' }), 400, 'bad_request');
    expectError(await post(gzipSync(body).subarray(0, 12), { 'Content-Encoding': 'gzip' }), 400, 'bad_request');
  });

  it('counts the limit on decoded bytes: a small gzip bomb is refused with 413', async () => {
    const bomb = gzipSync(Buffer.from(`{"name":"${'a'.repeat(10 * 1024 * 1024)}","categoryId":1}`));
    expect(bomb.length).to.be.below(16 * 1024);
    expectError(await post(bomb, { 'Content-Encoding': 'gzip' }), 413, 'payload_too_large');
    expect((await live.api.get('/v1/pets')).status).to.equal(200);
  });

  it('survives bad bytes that arrive after the limit was reached (413), and keeps serving', async () => {
    // Chunked, so no length is declared: the limit is found while reading, and more bytes follow.
    const chunk = (bytes: Buffer) => Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);
    const request = Buffer.concat([
      Buffer.from(
        `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_API_KEY}\r\nContent-Type: application/json\r\n` +
          'Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n',
      ),
      chunk(Buffer.from(`{"name":"${'a'.repeat(20 * 1024)}`)),
      chunk(Buffer.from([0xff, 0xfe])),
      chunk(Buffer.from('","categoryId":1}')),
      Buffer.from('0\r\n\r\n'),
    ]);
    const answer = parseRawAnswer(await rawExchange(live.server.url, request));
    expect(answer.json).to.deep.include({ code: 'payload_too_large', status: 413 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await live.api.get('/v1/pets')).status).to.equal(200);
  });

  it('refuses a declared Content-Length over the limit with 413 before reading the body', async () => {
    const head =
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_API_KEY}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${16 * 1024 + 1}\r\nConnection: close\r\n\r\n{}`;
    const answer = parseRawAnswer(await rawExchange(live.server.url, head));
    expect(answer.status).to.equal(413);
    expect(answer.json).to.deep.include({ code: 'payload_too_large', status: 413 });
  });

  it('finishes the request (400, logged) when the client cuts an upload off, compressed or not', async () => {
    const lines: string[] = [];
    const logged = await startTestServer(
      { kind: 'memory' },
      { logger: pino({ level: 'info' }, { write: (l: string) => void lines.push(l) }) },
    );
    try {
      const { port } = new URL(logged.url);
      for (const [encoding, part] of [
        ['identity', Buffer.from('{"name":"cut')],
        ['gzip', gzipSync(Buffer.from('{"name":"cut off"}')).subarray(0, 15)],
      ] as const) {
        const socket = connect(Number(port), '127.0.0.1');
        socket.write(
          `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_API_KEY}\r\nContent-Type: application/json\r\n` +
            `Content-Encoding: ${encoding}\r\nContent-Length: 500\r\nX-Request-Id: cut-${encoding}\r\n\r\n`,
        );
        socket.write(part);
        await new Promise((resolve) => setTimeout(resolve, 100));
        socket.destroy();
        // The handler ends (and logs its request) instead of waiting forever for bytes that will never come.
        const deadline = Date.now() + 5000;
        const finished = () => lines.map((l) => JSON.parse(l)).find((e) => e.msg === 'request' && e.requestId === `cut-${encoding}`);
        while (finished() === undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
        expect(finished(), encoding).to.deep.include({ status: 400 });
      }
    } finally {
      await logged.close();
    }
  });
});
