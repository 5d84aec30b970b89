// A test HTTP client on node:http, so that tests control every byte sent (fetch would add
// a Content-Type to string bodies and refuse some headers).
import { request as httpRequest } from 'node:http';
import { assertDocumented } from './openapi-contract.js';

export interface TestResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  readonly json: any;
}

export interface TestRequest {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
  /** The address to send from, such as 127.0.0.2: any of 127.0.0.0/8 reaches a server on 127.0.0.1. */
  readonly localAddress?: string;
}

/**
 * Sends a request; the answer must be what docs/openapi.yaml documents, or the test fails.
 * With a `mountPrefix`, the request goes to `prefix + path` (the service mounted in another
 * app) and is checked as the document's `path`.
 */
export async function request(baseUrl: string, path: string, options: TestRequest = {}, mountPrefix = ''): Promise<TestResponse> {
  const res = await send(baseUrl, `${mountPrefix}${path}`, options);
  await assertDocumented(options.method ?? 'GET', new URL(path, baseUrl).href, res);
  return res;
}

function send(baseUrl: string, path: string, options: TestRequest): Promise<TestResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      new URL(path, baseUrl),
      { method: options.method ?? 'GET', headers: options.headers ?? {}, agent: false, localAddress: options.localAddress },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** A client bound to one server and one API key (and the prefix the service is mounted under, if any). */
export function clientFor(baseUrl: string, apiKey: string, mountPrefix = '') {
  const auth = { Authorization: `Bearer ${apiKey}` };
  return {
    get: (path: string, headers: Record<string, string> = {}) => request(baseUrl, path, { headers: { ...auth, ...headers } }, mountPrefix),
    postJson: (path: string, body: unknown, headers: Record<string, string> = {}) =>
      request(
        baseUrl,
        path,
        {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'application/json', ...headers },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        },
        mountPrefix,
      ),
    send: (path: string, options: TestRequest) =>
      request(baseUrl, path, { ...options, headers: { ...auth, ...options.headers } }, mountPrefix),
  };
}
