// Small io-ts building blocks whose failures carry a human-readable message,
// so that every rejected value can be explained to the client in one sentence.
import * as t from 'io-ts';

/**
 * A codec that accepts values of `base` for which `problem` returns `undefined`,
 * and brands them as `B`. When `problem` returns a sentence, decoding fails with it.
 */
export function constrained<A, B extends A>(
  name: string,
  base: t.Type<A, A, unknown>,
  problem: (value: A) => string | undefined,
  baseProblem: string,
): t.Type<B, A, unknown> {
  return new t.Type<B, A, unknown>(
    name,
    (u): u is B => base.is(u) && problem(u) === undefined,
    (u, c) => {
      if (!base.is(u)) return t.failure(u, c, baseProblem);
      const message = problem(u);
      return message === undefined ? t.success(u as B) : t.failure(u, c, message);
    },
    (b) => b,
  );
}

/** `codec` with one message for every value it refuses. */
export function withMessage<A, O>(codec: t.Type<A, O, unknown>, message: string): t.Type<A, O, unknown> {
  return new t.Type<A, O, unknown>(codec.name, codec.is, (u, c) => (codec.is(u) ? t.success(u) : t.failure(u, c, message)), codec.encode);
}

type Decoded<P extends t.Props> = { readonly [K in keyof P]: t.TypeOf<P[K]> };

/** What an object codec does with a field it does not know: refuse it (request bodies) or ignore it (query strings, environments). */
export type UnknownFields = 'refuse' | 'ignore';

/**
 * An object codec that reports *every* problem at once: each missing required field,
 * each invalid value and (unless told to ignore them) each field it does not know. The decoded
 * value holds only the known fields, built afresh, so nothing of the input object (its
 * prototype included) leaks in. A field whose value is `undefined` is absent, as a TypeScript
 * optional property is (JSON and the environment have no such value; a program's options may).
 */
export function exactObject<R extends t.Props, O extends t.Props>(
  name: string,
  required: R,
  optional: O,
  unknownFields: UnknownFields = 'refuse',
): t.Type<Decoded<R> & Partial<Decoded<O>>, unknown, unknown> {
  type Out = Decoded<R> & Partial<Decoded<O>>;
  // Listed once, not on every decode: the fields in order, required ones first.
  const fields: ReadonlyArray<readonly [key: string, codec: t.Mixed, isRequired: boolean]> = [
    ...Object.entries(required).map(([key, codec]) => [key, codec, true] as const),
    ...Object.entries(optional).map(([key, codec]) => [key, codec, false] as const),
  ];
  const known = new Set(fields.map(([key]) => key));
  const validate = (u: unknown, c: t.Context): t.Validation<Out> => {
    if (typeof u !== 'object' || u === null || Array.isArray(u)) {
      return t.failure(u, c, 'must be a JSON object');
    }
    const input = u as Record<string, unknown>;
    const errors: t.ValidationError[] = [];
    const out: Record<string, unknown> = {};
    for (const [key, codec, isRequired] of fields) {
      if (!Object.prototype.hasOwnProperty.call(input, key) || input[key] === undefined) {
        if (isRequired) errors.push({ value: undefined, context: [...c, { key, type: codec, actual: undefined }], message: 'is required' });
        continue;
      }
      const result = codec.validate(input[key], [...c, { key, type: codec, actual: input[key] }]);
      if (result._tag === 'Left') errors.push(...result.left);
      else out[key] = result.right;
    }
    if (unknownFields === 'refuse') {
      for (const key of Object.keys(input)) {
        if (!known.has(key)) {
          errors.push({
            value: input[key],
            context: [...c, { key, type: t.unknown, actual: input[key] }],
            message: 'is not a known field',
          });
        }
      }
    }
    return errors.length > 0 ? t.failures(errors) : t.success(out as Out);
  };
  return new t.Type<Out, unknown, unknown>(
    name,
    (u): u is Out => typeof u === 'object' && u !== null && validate(u, [])._tag === 'Right',
    validate,
    (a) => a,
  );
}

const POSITIVE_ID_RANGE = `must be an integer between 1 and ${Number.MAX_SAFE_INTEGER}`;

/** The codec of an identifier named `name`, branded with `B`: an integer from 1 up that JSON carries exactly. */
export const positiveId = <B>(name: string) =>
  constrained<number, t.Branded<number, B>>(
    name,
    t.number,
    (n) => (Number.isSafeInteger(n) && n >= 1 ? undefined : POSITIVE_ID_RANGE),
    POSITIVE_ID_RANGE,
  );
