import { expect } from 'chai';
import { VerifiedTokens } from '../../../src/adapters/jwt/verified-tokens.js';

describe('VerifiedTokens', () => {
  it('keeps an entry until the token expires or its lifetime ends, whichever comes first', () => {
    const tokens = new VerifiedTokens<string>(10, 60_000);
    tokens.set('short', 'a', 0, 5_000);
    tokens.set('long', 'b', 0, 3_600_000);
    expect([tokens.get('short', 4_999), tokens.get('long', 59_999)]).to.deep.equal(['a', 'b']);
    expect([tokens.get('short', 5_000), tokens.get('long', 60_000)]).to.deep.equal([undefined, undefined]);
    expect(tokens.size, 'ended entries asked for are dropped').to.equal(0);
  });

  it('holds at most its limit, pushing out the entry kept longest ago', () => {
    const tokens = new VerifiedTokens<number>(3, 60_000);
    for (let i = 0; i < 5; i++) tokens.set(`token-${i}`, i, 0, 60_000);
    expect(tokens.size).to.equal(3);
    expect([0, 1, 2, 3, 4].map((i) => tokens.get(`token-${i}`, 1))).to.deep.equal([undefined, undefined, 2, 3, 4]);
  });

  it('keeps nothing with a limit of 0', () => {
    const tokens = new VerifiedTokens<number>(0, 60_000);
    tokens.set('token', 1, 0, 60_000);
    expect(tokens.get('token', 1)).to.equal(undefined);
  });
});
