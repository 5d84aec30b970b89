import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { decodeCursor, encodeCursor } from '../../src/adapters/http/request/page-cursor.js';
import type { PetId } from '../../src/domain/index.js';

// The cursor's format, computed here independently of the service's code: base64url of the
// payload, a dot, and base64url of the first 12 bytes of the payload's SHA-256 with its prefix.
// Cursors outlive a release (a client may hold one across an upgrade), so the format must not drift.
const cursorOf = (payload: string): string =>
  `${Buffer.from(payload).toString('base64url')}.${createHash('sha256')
    .update(`petstore-cursor\u0000${payload}`)
    .digest()
    .subarray(0, 12)
    .toString('base64url')}`;

describe('page cursor', () => {
  it('keeps its format: a cursor of the format decodes, and the service issues exactly that cursor', () => {
    for (const [afterId, status] of [
      [1, undefined],
      [42, 'sold'],
      [Number.MAX_SAFE_INTEGER, 'available'],
    ] as const) {
      const cursor = cursorOf(`p1:${afterId}:${status ?? ''}`);
      expect(encodeCursor({ afterId: afterId as PetId, status })).to.equal(cursor);
      expect(decodeCursor(cursor)).to.deep.equal({ afterId, status });
    }
  });

  it('refuses a cursor whose checksum or payload was changed', () => {
    const cursor = cursorOf('p1:42:sold');
    const [payload, sum] = cursor.split('.') as [string, string];
    const otherSum = `${sum.slice(0, -1)}${sum.endsWith('A') ? 'B' : 'A'}`;
    expect(decodeCursor(`${payload}.${otherSum}`)).to.equal(undefined);
    expect(decodeCursor(`${Buffer.from('p1:43:sold').toString('base64url')}.${sum}`)).to.equal(undefined);
    expect(decodeCursor(`${payload}.${sum.slice(0, -2)}`), 'a truncated checksum').to.equal(undefined);
  });
});
