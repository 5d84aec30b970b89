import { parse } from 'node:querystring';
import { expect } from 'chai';
import { queryParameters } from '../../src/adapters/http/request/query-parameters.js';

describe('query parameters', () => {
  it('decodes `+` and percent-escapes, keeps a malformed escape as sent, and groups a repeated parameter in order', () => {
    expect(queryParameters('%73tatus=%73old&limit=%31&name=a+b&bad=%zz&empty&a=1&a=2&a=3')).to.deep.equal({
      status: 'sold',
      limit: '1',
      name: 'a b',
      bad: '%zz',
      empty: '',
      a: ['1', '2', '3'],
    });
    expect(queryParameters('')).to.deep.equal({});
  });

  it('reads what node:querystring read, for parameters of every kind', () => {
    const queries = ['limit=5&status=sold&cursor=abc.def', 'x=%E2%82%AC&x=%FF&y=%41%42&z=a%20b+c', 'k=1&k=2&k=3&other=&=v'];
    for (const query of queries) expect(queryParameters(query), query).to.deep.equal({ ...parse(query, '&', '=', { maxKeys: 0 }) });
  });

  it('keeps every parameter, a thousand repeats of one included', () => {
    const many = Array.from({ length: 1500 }, (_, i) => `p${i}=${i}`).join('&');
    expect(Object.keys(queryParameters(`${many}&limit=2`))).to.have.length(1501);
    const repeated = queryParameters(Array.from({ length: 1000 }, (_, i) => `limit=${i}`).join('&'))['limit'];
    expect(repeated).to.have.length(1000);
    expect((repeated as string[])[999]).to.equal('999');
  });

  it('holds names of Object.prototype as own parameters, and leaves `__proto__` out without touching the prototype', () => {
    const parameters = queryParameters('constructor=c&toString=t&hasOwnProperty=h&__proto__=x&__proto__=y&__proto__[polluted]=1');
    expect(parameters).to.deep.equal({ constructor: 'c', toString: 't', hasOwnProperty: 'h', '__proto__[polluted]': '1' });
    expect(Object.getPrototypeOf(parameters)).to.equal(Object.prototype);
    expect(Object.hasOwn(parameters, '__proto__')).to.equal(false);
    expect(({} as Record<string, unknown>)['polluted']).to.equal(undefined);
  });
});
