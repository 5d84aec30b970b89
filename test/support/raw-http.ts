import { connect } from 'node:net';

/** Sends raw bytes to a server and returns everything it answers until it closes the connection. */
export function rawExchange(url: string, bytes: string | Buffer, timeoutMs = 5000): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer before the timeout'));
    }, timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    socket.write(bytes);
  });
}

/** The status code and the parsed JSON body of a raw HTTP/1.1 answer. */
export function parseRawAnswer(answer: string): { status: number; headers: string; json: any } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head, json: JSON.parse(body) };
}

export interface RawResponse {
  readonly status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  readonly headers: Record<string, string>;
  readonly body: Buffer;
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  readonly json: any;
}

/**
 * Sends `bytes` (anything at all: the request need not be valid HTTP) on a new connection and
 * parses the first final answer (interim 1xx answers are skipped). Rejects when nothing
 * complete has arrived `timeoutMs` after the request was sent: a hang.
 */
export function rawRequest(url: string, bytes: string | Buffer, timeoutMs = 5000): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = Buffer.alloc(0);
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      outcome();
    };
    const timer = setTimeout(
      () =>
        settle(() => reject(new Error(`no complete answer within ${timeoutMs} ms (a hang): ${received.toString('latin1').slice(0, 200)}`))),
      timeoutMs,
    );
    const headRequest = (typeof bytes === 'string' ? bytes : bytes.toString('latin1')).startsWith('HEAD ');
    const tryParse = (closed: boolean) => {
      const parsed = parseHttpResponse(received, closed, headRequest);
      if (parsed !== undefined) settle(() => resolve(parsed));
      else if (closed)
        settle(() =>
          reject(new Error(`connection closed without a complete answer: ${JSON.stringify(received.toString('latin1').slice(0, 200))}`)),
        );
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      tryParse(false);
    });
    // A reset after a complete answer (the server closing with unread request bytes) is fine.
    socket.on('error', () => tryParse(true));
    socket.on('close', () => tryParse(true));
    socket.write(bytes);
  });
}

/** The first final response in `data`, or undefined while it is incomplete. */
function parseHttpResponse(data: Buffer, closed: boolean, headRequest: boolean): RawResponse | undefined {
  let start = 0;
  for (;;) {
    const headEnd = data.indexOf('\r\n\r\n', start);
    if (headEnd < 0) return undefined;
    const head = data.subarray(start, headEnd).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? '')?.[1]);
    if (Number.isNaN(status)) throw new Error(`not an HTTP answer: ${JSON.stringify(head[0])}`);
    if (status >= 100 && status < 200) {
      start = headEnd + 4;
      continue;
    }
    const headers: Record<string, string> = {};
    for (const line of head.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    const rest = data.subarray(headEnd + 4);
    let body: Buffer | undefined;
    if (headRequest) body = Buffer.alloc(0);
    else if (headers['transfer-encoding']?.toLowerCase() === 'chunked') body = dechunk(rest);
    else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      body = rest.length >= length ? rest.subarray(0, length) : undefined;
    } else if (status === 204 || status === 304) body = Buffer.alloc(0);
    else body = closed ? rest : undefined;
    if (body === undefined) return undefined;
    const text = body.toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status, headers, body, text, json };
  }
}

/** A chunked body, or undefined until its last chunk has arrived. */
function dechunk(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (size === 0) return Buffer.concat(parts);
    if (data.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
