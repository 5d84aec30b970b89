// Generators of hostile HTTP input (fast-check arbitraries) and the checks every answer to
// it must pass, for the property-based tests of test/http/hostile-input.test.ts.
import { expect } from 'chai';
import fc from 'fast-check';
import { ERROR_CATALOGUE } from '../../src/adapters/http/errors/error-catalogue.js';
import type { RawResponse } from './raw-http.js';

// ---------------------------------------------------------------------------------------------
// Requests as bytes

export interface Outgoing {
  readonly method: string;
  /** The request-target exactly as sent (a path, a query, anything). */
  readonly target: string;
  /** Header lines as sent; values are latin1 strings, one byte per character. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body?: Buffer;
}

/** The request as bytes on the wire: HTTP/1.1, one request per connection. */
export function encodeRequest(request: Outgoing): Buffer {
  const lines = [
    `${request.method} ${request.target} HTTP/1.1`,
    'Host: petstore.test',
    ...request.headers.map(([name, value]) => `${name}: ${value}`),
    ...(request.body === undefined ? [] : [`Content-Length: ${request.body.length}`]),
    'Connection: close',
    '',
    '',
  ];
  return Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), request.body ?? Buffer.alloc(0)]);
}

// ---------------------------------------------------------------------------------------------
// Arbitraries

/** Numbers as JSON text, including the ones a double cannot hold and some that are not JSON. */
const numberText = fc.oneof(
  fc.constantFrom(
    '1e400',
    '-1e400',
    '1E+400',
    '1e-400',
    '9007199254740991',
    '9007199254740992',
    '9007199254740993',
    '-9007199254740993',
    '123456789012345678901234567890',
    `1${'0'.repeat(400)}`,
    '-0',
    '0.0',
    '7e0',
    '7.0',
    '1.5',
    '0.1e1',
    '1.0000000000000001',
    '01',
    '0x10',
    'NaN',
    'Infinity',
    '-',
    '+1',
    '.5',
  ),
  fc.integer().map(String),
  fc.bigInt().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
);

/** Object keys a NewPet has, ones that reach for prototypes, and anything else. */
const objectKey = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('name', 'categoryId', 'status') },
  {
    weight: 2,
    arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', 'polluted', 'toString', 'hasOwnProperty', 'valueOf', 'isAdmin'),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 10 }) },
);

const stringValue = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom('available', 'pending', 'sold', 'SOLD', '', ' ', '\u0000', '\ud800', "'; DROP TABLE pets; --", 'a'.repeat(101)),
);

/** Any JSON text (and some near-JSON), as a tree of values built as text so that numbers stay as written. */
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string; leaf: string; array: string; object: string }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('leaf'), tie('array'), tie('object')),
  leaf: fc.oneof(
    numberText,
    stringValue.map((s) => JSON.stringify(s)),
    fc.constantFrom('true', 'false', 'null'),
  ),
  array: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
  object: fc
    .array(fc.tuple(objectKey, tie('value')), { maxLength: 5 })
    .map((entries) => `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`),
})).value;

/** Bodies close to a NewPet: most are valid, the others wrong in one or two ways. */
const petLikeText = fc
  .record(
    {
      name: fc.oneof(
        { weight: 4, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }) },
        { weight: 1, arbitrary: stringValue },
      ),
      categoryId: fc.oneof({ weight: 4, arbitrary: fc.maxSafeInteger() }, { weight: 1, arbitrary: fc.double() }),
      status: fc.constantFrom('available', 'pending', 'sold', 'Sold'),
      extra: fc.constantFrom('__proto__', 'constructor', 'polluted'),
    },
    { requiredKeys: [] },
  )
  .chain((pet) =>
    fc.constantFrom(
      JSON.stringify({ name: pet.name, categoryId: pet.categoryId, status: pet.status }),
      JSON.stringify({ name: pet.name, categoryId: pet.categoryId }),
      // JSON.stringify drops a __proto__ key; written by hand it is an own key of the parsed object.
      pet.extra === undefined
        ? JSON.stringify(pet)
        : `{"name":${JSON.stringify(pet.name ?? 'x')},"categoryId":1,"${pet.extra}":{"polluted":"yes"}}`,
    ),
  );

/** Nesting far deeper than any NewPet: arrays, objects and prototype paths. */
const deepText = fc.tuple(fc.integer({ min: 50, max: 6000 }), fc.constantFrom('array', 'object', 'proto')).map(([depth, kind]) => {
  if (kind === 'array') return `${'['.repeat(depth)}${']'.repeat(depth)}`;
  if (kind === 'object') return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  return `{"name":"deep","categoryId":1,"__proto__":${'{"__proto__":'.repeat(depth)}{"polluted":"yes"}${'}'.repeat(depth)}}`;
});

/** A JSON request body as text: anything, near a NewPet, or deeply nested. */
export const bodyText = fc.oneof(
  { weight: 3, arbitrary: jsonText },
  { weight: 3, arbitrary: petLikeText },
  { weight: 1, arbitrary: deepText },
);

/** Byte sequences that are not UTF-8, each for one of the reasons RFC 3629 gives. */
export const invalidUtf8 = fc.oneof(
  fc.integer({ min: 0x80, max: 0xbf }).map((b) => [b]), // a continuation byte with no lead
  fc.constantFrom(0xc0, 0xc1, 0xf5, 0xf8, 0xfc, 0xfe, 0xff).map((b) => [b, 0x80, 0x80]), // bytes never used
  fc.integer({ min: 0x00, max: 0x7f }).map((c) => [0xc0 | (c >> 6), 0x80 | (c & 0x3f)]), // overlong ASCII
  fc.integer({ min: 0xa0, max: 0xbf }).map((b) => [0xed, b, 0x80]), // an encoded surrogate
  fc.integer({ min: 0x90, max: 0xbf }).map((b) => [0xf4, b, 0x80, 0x80]), // above U+10FFFF
  fc.constantFrom([0xe2, 0x82], [0xf0, 0x9f, 0x90], [0xc3]), // a character cut short
);

/** Text a header value may carry on the wire: printable ASCII, tabs, obs-text, and now and then a control byte. */
export const headerValue = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 }) },
  { weight: 2, arbitrary: fc.string({ unit: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 10 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('\t', '\u0000', '\u0001', '\u007f', '\u001b', 'a'), maxLength: 5 }) },
);

/** Text of a query-string or path part: characters as they come, and percent-escapes good and bad. */
export const urlPart = fc.oneof(
  fc.string({ unit: fc.constantFrom(..."abcXYZ019-._~!$&'()*+,;=:@/?[]%".split('')), maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }).map((s) => encodeURIComponent(s)),
  fc.constantFrom('%zz', '%', '%0', '%00', '%E2%82', '%FF', '%C0%AF', '%2e%2e', '%2F', '..', '.', '١٢', ''),
);

// ---------------------------------------------------------------------------------------------
// The rules, written out independently of the service: what a body must be to create a pet.

export interface ExpectedPet {
  readonly name: string;
  readonly categoryId: number;
  readonly status: string;
}

/** The pet `text` describes if it is a valid NewPet, or undefined when it must be refused. */
export function expectedPet(text: string): ExpectedPet | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  if (Object.keys(value).some((key) => !['name', 'categoryId', 'status'].includes(key))) return undefined;
  const { name, categoryId, status = 'available' } = value as Record<string, unknown>;
  if (typeof name !== 'string' || /\p{Cs}/u.test(name) || name.trim() === '' || /[\u0000-\u001f\u007f-\u009f]/.test(name)) return undefined;
  if ([...name].length > 100) return undefined;
  if (!Number.isSafeInteger(categoryId)) return undefined;
  if (typeof status !== 'string' || !['available', 'pending', 'sold'].includes(status)) return undefined;
  // JSON has one zero: -0 is stored and answered as 0.
  return { name, categoryId: (categoryId as number) + 0, status };
}

// ---------------------------------------------------------------------------------------------
// Checks

// A V8 stack frame: `at fn (/path/file.js:1:2)`, `at async fn (node:internal/…:1:2)` or
// `at file:///path:1:2`, on one line: a location made of a path and line and column numbers.
const STACK_FRAME = /\bat (?:[\w.<>$[\]]+ )*\(?(?:node:|file:|\/)[^\s()]*:\d+:\d+|\.ts:\d+|node_modules/;

/**
 * Never a 5xx, but the 501 of a transfer coding the service does not read (RFC 9112 §6.1); an
 * error is the Error body (or problem details) whose status is the HTTP status.
 */
export function expectSoundAnswer(res: RawResponse, method: string, what: string): void {
  // A HEAD answer has no body to tell the code by.
  const unsupportedCoding = res.status === 501 && (method === 'HEAD' || res.json?.code === 'unsupported_transfer_coding');
  if (!unsupportedCoding) expect(res.status, `${what} → ${res.status} ${res.text.slice(0, 300)}`).to.be.within(200, 499);
  expect(res.text, what).not.to.match(STACK_FRAME);
  if (res.status < 400 || method === 'HEAD') return;
  expect(res.headers['content-type'], what).to.be.oneOf(['application/json; charset=utf-8', 'application/problem+json; charset=utf-8']);
  expect(res.json, `${what}: ${res.text}`).to.be.an('object');
  const { code, message, status } = res.json as { code: unknown; message: unknown; status: unknown };
  expect(Object.keys(ERROR_CATALOGUE), what).to.include(code);
  expect(status, what).to.equal(res.status);
  if (code !== 'client_error') expect(ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE], what).to.equal(res.status);
  expect(message, what).to.be.a('string').and.not.equal('');
}

const PROTOTYPES: ReadonlyArray<readonly [string, object]> = [
  ['Object', Object.prototype],
  ['Array', Array.prototype],
  ['Function', Function.prototype],
  ['String', String.prototype],
  ['Number', Number.prototype],
  ['Boolean', Boolean.prototype],
  ['Promise', Promise.prototype],
  ['Error', Error.prototype],
  ['RegExp', RegExp.prototype],
  ['Map', Map.prototype],
  ['Set', Set.prototype],
];

/** The own property names of every built-in prototype, to compare before and after. */
export const prototypeSnapshot = (): Record<string, string[]> =>
  Object.fromEntries(PROTOTYPES.map(([name, proto]) => [name, Reflect.ownKeys(proto).map(String).sort()]));

/** No prototype gained or lost a property, and a fresh object has none of the injected ones. */
export function expectNoPollution(before: Record<string, string[]>): void {
  expect(prototypeSnapshot()).to.deep.equal(before);
  const fresh: Record<string, unknown> = {};
  for (const key of ['polluted', 'isAdmin', 'name', 'categoryId', 'status', 'a']) {
    expect(fresh[key], key).to.equal(undefined);
    expect(key in fresh, key).to.equal(false);
  }
  expect(Object.getPrototypeOf(fresh)).to.equal(Object.prototype);
  expect(Object.prototype.toString.call(fresh)).to.equal('[object Object]');
}
