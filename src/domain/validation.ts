// Turns io-ts failures into a flat list of problems, each with the JSON Pointer
// (RFC 6901) of the offending value, so a client can fix every field in one go.
import type * as t from 'io-ts';

/** One problem of a decoded input: where it is (a JSON Pointer) and what is wrong. */
export interface FieldProblem {
  /** JSON Pointer to the value inside the decoded input; `""` is the input itself. */
  readonly pointer: string;
  readonly message: string;
}

const escapePointerSegment = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** io-ts failures as a flat list of problems, one per JSON Pointer and message, in the order found. */
export function describeFailures(errors: t.Errors): readonly FieldProblem[] {
  const problems = errors.map((error) => ({
    pointer: error.context
      .slice(1)
      .map((entry) => `/${escapePointerSegment(entry.key)}`)
      .join(''),
    message: error.message ?? 'is invalid',
  }));
  // One problem per pointer and message: union codecs may report the same failure twice.
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.pointer}\u0000${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
