// The rules of a creation request, decoded by the domain's NewPet codec.
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { describeFailures, MAX_PET_NAME_LENGTH, NewPet } from '../../src/domain/index.js';

const problems = (input: unknown) => {
  const result = NewPet.decode(input);
  return E.isLeft(result) ? describeFailures(result.left) : [];
};

describe('NewPet', () => {
  it('accepts a name and a category, status optional', () => {
    expect(NewPet.decode({ name: 'Rex', categoryId: 1 })).to.deep.equal(E.right({ name: 'Rex', categoryId: 1 }));
    expect(NewPet.decode({ name: 'Rex', categoryId: 1, status: 'sold' })).to.deep.equal(
      E.right({ name: 'Rex', categoryId: 1, status: 'sold' }),
    );
  });

  it('reports every problem at once, each with its JSON Pointer', () => {
    expect(problems({ status: 'lost', extra: true })).to.deep.equal([
      { pointer: '/name', message: 'is required' },
      { pointer: '/categoryId', message: 'is required' },
      { pointer: '/status', message: 'must be one of available, pending, sold' },
      { pointer: '/extra', message: 'is not a known field' },
    ]);
  });

  it('refuses anything but a JSON object', () => {
    for (const input of [null, [], 'Rex', 42, true]) {
      expect(problems(input)).to.deep.equal([{ pointer: '', message: 'must be a JSON object' }]);
    }
  });

  it('refuses names that are empty, blank, too long, not strings, with control characters or lone surrogates', () => {
    const nameProblem = (name: unknown) => problems({ name, categoryId: 1 })[0]?.message;
    expect(nameProblem('')).to.equal('must not be empty');
    expect(nameProblem('   ')).to.equal('must not be blank');
    expect(nameProblem('x'.repeat(MAX_PET_NAME_LENGTH + 1))).to.match(/at most 100/);
    expect(nameProblem(12)).to.equal('must be a string');
    expect(nameProblem(null)).to.equal('must be a string');
    expect(nameProblem('tab\there')).to.match(/control/);
    expect(nameProblem('nul\u0000')).to.match(/control/);
    expect(nameProblem('lone \ud800 surrogate')).to.match(/well-formed/);
  });

  it('counts the name length in code points, so 100 emoji fit', () => {
    expect(problems({ name: '🐕'.repeat(MAX_PET_NAME_LENGTH), categoryId: 1 })).to.deep.equal([]);
    expect(problems({ name: 'x'.repeat(MAX_PET_NAME_LENGTH), categoryId: 1 })).to.deep.equal([]);
  });

  it('keeps a valid name verbatim, spaces and quotes included', () => {
    const name = ` O'Brien "the dog" 🐕 `;
    expect(NewPet.decode({ name, categoryId: 1 })).to.deep.equal(E.right({ name, categoryId: 1 }));
  });

  it('accepts every category id JSON carries exactly, and refuses the rest rather than round it', () => {
    for (const categoryId of [0, -1, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER]) {
      expect(problems({ name: 'a', categoryId }), String(categoryId)).to.deep.equal([]);
    }
    // 2^53 + 1 in the JSON text parses to 2^53: refused, never stored as a neighbour.
    for (const categoryId of [JSON.parse('9007199254740993'), 2 ** 63, 1.5, Number.NaN, Infinity, JSON.parse('1e400'), '1']) {
      expect(problems({ name: 'a', categoryId })[0]?.pointer, String(categoryId)).to.equal('/categoryId');
    }
  });

  it('refuses a null status rather than reading it as omitted', () => {
    expect(problems({ name: 'a', categoryId: 1, status: null })).to.deep.equal([
      { pointer: '/status', message: 'must be one of available, pending, sold' },
    ]);
  });

  it('refuses __proto__ and constructor as unknown fields, and its result has a plain prototype', () => {
    const input = JSON.parse('{"name":"a","categoryId":1,"__proto__":{"polluted":true},"constructor":{}}');
    expect(problems(input).map((p) => p.pointer)).to.deep.equal(['/__proto__', '/constructor']);
    const ok = NewPet.decode(JSON.parse('{"name":"a","categoryId":1}'));
    expect(E.isRight(ok) && Object.getPrototypeOf(ok.right)).to.equal(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).to.equal(undefined);
  });

  it('escapes ~ and / in the pointer of an unknown field (RFC 6901)', () => {
    expect(problems({ name: 'a', categoryId: 1, 'a/b~c': 1 })).to.deep.equal([{ pointer: '/a~1b~0c', message: 'is not a known field' }]);
  });
});
