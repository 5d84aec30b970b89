// One request to a server before a scenario's load, to learn whether it has an operation at all.
import { request } from 'node:http';

/** The status `method` `path` answers, with `body` as `contentType` when given; the answer is read and dropped. */
export function answerStatus(
  origin: string,
  headers: Record<string, string>,
  method: string,
  path: string,
  body?: { readonly text: string; readonly contentType: string },
): Promise<number> {
  const sent =
    body === undefined ? headers : { ...headers, 'content-type': body.contentType, 'content-length': Buffer.byteLength(body.text) };
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, origin), { method, headers: sent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body?.text);
  });
}
