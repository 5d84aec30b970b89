// The lines of an export file as the import reads them: split by split2, with a bound on the
// length of a line held, and checked to be UTF-8 byte for byte, so that a file that is not
// UTF-8 is refused, naming its line, instead of being decoded with U+FFFD in its place.
import { createReadStream } from 'node:fs';
import { pipeline, Transform } from 'node:stream';
import split2 from 'split2';

/**
 * The most characters of one line held while its end is looked for (split2's maxLength, which
 * it checks after each read of 64 KiB: a line of up to that much more may still be read whole,
 * and refused by the codecs). A valid record is under about 1 KiB: this only bounds the memory
 * a file without newlines (or with one huge line) takes before it is refused.
 */
export const MAX_LINE_CHARACTERS = 64 * 1024;

/** Line `line` of the file holds bytes that are not UTF-8. */
export class NotUtf8 extends Error {
  constructor(readonly line: number) {
    super(`line ${line} is not UTF-8`);
  }
}

const NEWLINE = 0x0a;

/** The number of the line of `bytes` (which starts at line `first`) where UTF-8 first fails; `bytes` may end inside a character. */
function lineNotUtf8(bytes: Buffer, first: number): number {
  for (let start = 0, line = first; ; line += 1) {
    const newline = bytes.indexOf(NEWLINE, start);
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(start, newline === -1 ? bytes.length : newline), {
        stream: newline === -1,
      });
    } catch {
      return line;
    }
    if (newline === -1) return line;
    start = newline + 1;
  }
}

/**
 * The bytes read, passed on unchanged once TextDecoder's fatal mode has taken them as UTF-8
 * (a character split between two chunks included): decoding a line would otherwise replace an
 * invalid byte with U+FFFD, and the import store what the file does not say. It keeps count of
 * the lines, and the bytes of the line under way, to name the line that is not UTF-8.
 */
function utf8Checked(): Transform {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let lines = 0;
  let partial: Buffer = Buffer.alloc(0);
  const notUtf8 = (chunk: Buffer) => new NotUtf8(lineNotUtf8(Buffer.concat([partial, chunk]), lines + 1));
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        decoder.decode(chunk, { stream: true });
      } catch {
        return done(notUtf8(chunk));
      }
      const last = chunk.lastIndexOf(NEWLINE);
      if (last === -1) {
        // A line longer than split2 takes fails there: what is kept here stays bounded.
        partial = partial.length > 2 * MAX_LINE_CHARACTERS ? partial : Buffer.concat([partial, chunk]);
      } else {
        for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) lines += 1;
        partial = chunk.subarray(last + 1);
      }
      done(null, chunk);
    },
    flush(done) {
      try {
        decoder.decode();
      } catch {
        return done(new NotUtf8(lines + 1));
      }
      done();
    },
  });
}

/** The lines of `file`, split by split2, never holding more than MAX_LINE_CHARACTERS of one past a read; a read error rejects them. */
export function linesOf(file: string): AsyncIterable<string> {
  const lines = split2({ maxLength: MAX_LINE_CHARACTERS });
  // pipeline destroys `lines` with the file's error (a folder, no permission, not UTF-8), which the reader's loop then throws.
  pipeline(createReadStream(file), utf8Checked(), lines, () => undefined);
  return lines;
}

/** Whether `err` is split2's refusal of a line longer than MAX_LINE_CHARACTERS. */
export const isLineTooLong = (err: unknown): boolean => err instanceof Error && err.message === 'maximum buffer reached';
