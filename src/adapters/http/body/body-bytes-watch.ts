// Watches the bytes of a request body while koa-bodyparser reads it, for what the parser cannot
// tell: whether the decoded bytes are UTF-8 (its decoder replaces a bad byte with U+FFFD without
// a word, so a name would be stored other than sent), and whether the client cut the upload off
// (its decompressing stream then waits for bytes that never come).
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createUnzip } from 'node:zlib';

/** What the watch saw of the body's decoded bytes: all UTF-8, some not, or not all of them. */
export type Utf8Verdict = 'utf8' | 'not-utf8' | 'unknown';

export interface BodyBytesWatch {
  /** Resolves when the client goes away before its body is complete; never rejects. */
  readonly cutOff: Promise<void>;
  /**
   * Whether the decoded body is UTF-8. Waits for the watch's own decompression to finish when
   * the whole body arrived; answers `unknown` when it did not, or was larger than the limit.
   */
  utf8(): Promise<Utf8Verdict>;
}

// The codings koa-bodyparser's inflation undoes; anything else it refuses, and so is not watched.
const decompressorFor = (coding: string): Transform | undefined => {
  if (coding === 'gzip' || coding === 'deflate') return createUnzip();
  if (coding === 'br') return createBrotliDecompress();
  return undefined;
};

/**
 * Starts watching `req`, whose Content-Encoding is `coding` (already in lower case). Must be
 * called in the same turn as the parser starts reading, as the 'data' listener sets the body
 * flowing. A compressed body is decompressed a second time here, up to `limitBytes`: the parser
 * keeps its decoded bytes to itself.
 */
export function watchBodyBytes(req: IncomingMessage, coding: string, limitBytes: number): BodyBytesWatch {
  const chunks: Buffer[] = [];
  let size = 0;
  let overflow = false;
  const keep = (chunk: Buffer): void => {
    if (overflow) return;
    size += chunk.length;
    if (size > limitBytes) overflow = true;
    else chunks.push(chunk);
  };

  const decompress = coding === 'identity' ? undefined : decompressorFor(coding);
  let decoded: Promise<boolean>;
  if (decompress === undefined) {
    req.on('data', keep);
    decoded = new Promise((resolve) => req.once('end', () => resolve(true)));
  } else {
    decompress.on('data', (chunk: Buffer) => {
      keep(chunk);
      // Past the limit the parser refuses the body (413): a bomb is not inflated further here.
      if (overflow) decompress.destroy();
    });
    // A corrupt stream is the parser's to report (400); the verdict is then unknown.
    // Listened to for good, not once: a second error nobody listens to would end the process.
    decoded = new Promise((resolve) => {
      decompress.once('end', () => resolve(true));
      decompress.on('error', () => resolve(false));
      decompress.once('close', () => resolve(false));
    });
    req.on('data', (chunk: Buffer) => decompress.destroyed || decompress.write(chunk));
    req.once('end', () => decompress.destroyed || decompress.end());
  }

  const cutOff = new Promise<void>((resolve) => req.once('close', () => req.complete || resolve()));

  return {
    cutOff,
    utf8: async () => {
      // Whole when the request ended: then the watch's own decompression is waited for too.
      const whole = req.complete && (await decoded) && !overflow;
      if (!whole) return 'unknown';
      return isUtf8(Buffer.concat(chunks, size)) ? 'utf8' : 'not-utf8';
    },
  };
}
