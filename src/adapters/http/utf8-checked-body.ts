// The bytes of a request body as a body parser should see them: its Content-Encoding undone
// (gzip, deflate, br) and every byte checked to be UTF-8 on the way, failing at the first
// that is not. A decoder that replaces bad bytes with U+FFFD would store a name that differs
// from the one sent; a refusal lets the client see its mistake.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { type Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createUnzip } from 'node:zlib';

/** The body holds a byte sequence that is not UTF-8 (RFC 3629), or ends inside a character. */
export class InvalidUtf8Error extends Error {
  constructor() {
    super('the request body is not valid UTF-8');
    this.name = 'InvalidUtf8Error';
  }
}

/** A readable body with the headers a body parser reads from a request. */
export type CheckedBody = Readable & { readonly headers: IncomingHttpHeaders };

const clientError = (status: number, message: string): Error => Object.assign(new Error(message), { status, expose: true });

function decompressor(encoding: string): Transform | undefined {
  switch (encoding) {
    case 'identity':
      return undefined;
    case 'gzip':
    case 'deflate':
      return createUnzip();
    case 'br':
      return createBrotliDecompress();
    default:
      throw clientError(415, `Unsupported Content-Encoding: ${encoding}`);
  }
}

/**
 * `req`'s body, decompressed and checked. Fails (throws or emits) with InvalidUtf8Error,
 * a 415 error for an unknown Content-Encoding, a 400 error for an aborted upload, or the
 * decompressor's error for a corrupt compressed body. The request itself is never destroyed
 * here, so an answer can still be sent on its connection.
 */
export function utf8CheckedBody(req: IncomingMessage): CheckedBody {
  if (req.destroyed) throw clientError(400, 'request aborted');
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const decompress = decompressor(encoding);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const check = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        decoder.decode(chunk, { stream: true });
      } catch {
        done(new InvalidUtf8Error());
        return;
      }
      done(null, chunk);
    },
    flush(done) {
      try {
        decoder.decode();
      } catch {
        done(new InvalidUtf8Error());
        return;
      }
      done();
    },
  });
  // What the parser would have seen on the request itself: an upload cut off, a corrupt compressed body.
  req.once('aborted', () => check.destroy(clientError(400, 'request aborted')));
  req.on('error', (err) => check.destroy(err));
  decompress?.on('error', (err) => check.destroy(err));
  // The parser listens for errors only while it reads. Bytes still arrive after it stopped
  // (at the size limit, or on its own error), and one of them may be bad: an 'error' event
  // nobody listens to would end the process.
  check.on('error', () => {});
  (decompress === undefined ? req : req.pipe(decompress)).pipe(check);
  // Uncompressed, the parser checks the declared length (and refuses one over the limit before reading).
  const headers: IncomingHttpHeaders = encoding === 'identity' ? { 'content-length': req.headers['content-length'] } : {};
  return Object.assign(check, { headers });
}
