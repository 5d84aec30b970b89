// The OTLP/HTTP receiver of a --tracing run: on a free port of 127.0.0.1, it answers 200 to every
// POST /v1/traces and counts the requests and their bytes, decoding nothing.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtlpSink {
  /** OTEL_EXPORTER_OTLP_ENDPOINT of the server measured (the exporter adds /v1/traces). */
  readonly endpoint: string;
  /** The export requests received so far, and their bodies' bytes. */
  received(): { readonly requests: number; readonly bytes: number };
  stop(): Promise<void>;
}

export async function startOtlpSink(): Promise<OtlpSink> {
  let requests = 0;
  let bytes = 0;
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/traces') {
      req.resume();
      res.writeHead(404).end();
      return;
    }
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    // An empty body is a full success, in either of OTLP/HTTP's encodings.
    req.on('end', () => {
      requests += 1;
      res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/json' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => ({ requests, bytes }),
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
