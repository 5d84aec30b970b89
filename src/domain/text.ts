// The rules of a text that the service stores and shows as it was written (a pet's name, a
// key's label): well-formed Unicode, a bounded length, no control characters.
import * as t from 'io-ts';
import { constrained } from './codec.js';

// C0 and C1 control characters (tab and newline included) could forge lines in a terminal
// listing or a log, and PostgreSQL cannot store U+0000 at all: refusing them keeps every adapter equal.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/u;
// JSON can carry "\ud800" alone; no UTF-8 store can keep it unchanged, so it is refused.
const LONE_SURROGATE = /\p{Cs}/u;

/** What is wrong with `text` as a stored text of at most `maxLength` code points (and, when `required`, not blank); undefined when nothing is. */
export function storedTextProblem(text: string, maxLength: number, required: boolean): string | undefined {
  if (LONE_SURROGATE.test(text)) return 'must be well-formed Unicode (no lone surrogates)';
  const length = [...text].length;
  if (required && length === 0) return 'must not be empty';
  if (length > maxLength) return `must be at most ${maxLength} characters long`;
  if (required && text.trim() === '') return 'must not be blank';
  if (CONTROL_CHARACTER.test(text)) return 'must not contain control characters';
  return undefined;
}

/** The codec of a stored text named `name`, branded with `B`: a string without a {@link storedTextProblem}. */
export const storedText = <B>(name: string, maxLength: number, required: boolean) =>
  constrained<string, t.Branded<string, B>>(name, t.string, (text) => storedTextProblem(text, maxLength, required), 'must be a string');
