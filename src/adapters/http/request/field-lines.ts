// How many times a request sends a header field. Node's `req.headers` cannot tell: of a repeated
// field it keeps only the first line for some names (Authorization among them), and joins the
// lines of the others with ", ", which one line may hold as well.
import type { IncomingMessage } from 'node:http';

/** How many lines of the field `name` (in lower case) the request's head has. */
export function fieldLineCount(req: IncomingMessage, name: string): number {
  const raw = req.rawHeaders;
  let count = 0;
  // Names and values alternate; a name of another length is passed over without a lower-case copy.
  for (let i = 0; i < raw.length; i += 2) {
    const field = raw[i]!;
    if (field.length === name.length && field.toLowerCase() === name) count += 1;
  }
  return count;
}
