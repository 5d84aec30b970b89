import { expect } from 'chai';
import { linkTarget } from '../../src/client/link-header.js';
import { DEFAULT_RETRY_POLICY, delayBefore, isRetryableStatus } from '../../src/client/retry.js';

describe("the client's Link parsing", () => {
  it('finds the target of a relation among several links, quoted or not, in any case', () => {
    const header = '</v1/pets>; rel="successor-version", </docs/deprecations>; rel="deprecation"; type="text/markdown"';
    expect(linkTarget(header, 'deprecation')).to.equal('/docs/deprecations');
    expect(linkTarget(header, 'next')).to.equal(undefined);
    expect(linkTarget('</p?cursor=a.b>; rel=next', 'next')).to.equal('/p?cursor=a.b');
    expect(linkTarget('</a>; rel="prev next"', 'next')).to.equal('/a');
    expect(linkTarget('</a>; REL="Next"', 'next')).to.equal('/a');
    expect(linkTarget(null, 'next')).to.equal(undefined);
  });
});

describe("the client's retry policy", () => {
  const policy = DEFAULT_RETRY_POLICY;

  it('waits a random time up to a doubling ceiling, capped', () => {
    expect(delayBefore(2, policy, undefined, () => 0.999)).to.equal(199);
    expect(delayBefore(3, policy, undefined, () => 0.999)).to.equal(399);
    expect(delayBefore(4, policy, undefined, () => 0.5)).to.equal(400);
    expect(delayBefore(20, policy, undefined, () => 0.999)).to.equal(4995);
    expect(delayBefore(2, policy, undefined, () => 0)).to.equal(0);
  });

  it('never waits less than Retry-After, and does not retry when it asks for more than the cap', () => {
    expect(delayBefore(2, policy, 1, () => 0)).to.equal(1000);
    expect(delayBefore(2, policy, 0, () => 0.5)).to.equal(100);
    expect(delayBefore(2, policy, 6, () => 0)).to.equal(undefined);
  });

  it('retries 408, 429, 5xx and 409 idempotency_key_in_use, and nothing else', () => {
    for (const status of [408, 429, 500, 502, 503, 504]) expect(isRetryableStatus(status, undefined), String(status)).to.equal(true);
    expect(isRetryableStatus(409, 'idempotency_key_in_use')).to.equal(true);
    for (const status of [400, 401, 404, 413, 422]) expect(isRetryableStatus(status, undefined), String(status)).to.equal(false);
    expect(isRetryableStatus(409, 'conflict')).to.equal(false);
  });
});
