// The node:http server around the Koa app: its limits and timeouts, JSON answers even for
// requests too broken to reach Koa, and a graceful stop that lets requests in flight finish.
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { apiError, type ApiError, errorBody } from './errors/error-catalogue.js';
import { isSupportedTransferCoding } from './request/transfer-coding.js';

/** The limits and timeouts of the node:http server; see docs/configuration.md. */
export interface HttpServerLimits {
  /** Largest request head (request line + headers), in bytes; larger → 431. */
  readonly maxHeaderBytes: number;
  /** Time to receive the complete request head; slower (slow-loris) → 408, connection closed. */
  readonly headersTimeoutMs: number;
  /** Time to receive the complete request, body included; slower → 408, connection closed. */
  readonly requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept open. */
  readonly keepAliveTimeoutMs: number;
  /**
   * How long a connection with a request open may go without a byte received or sent (a
   * client that stops reading its answer: slow read); then it is cut, with no answer. Longer
   * than requestTimeoutMs, so that a request whose body stops coming gets its 408 first.
   */
  readonly socketIdleTimeoutMs: number;
  /** On stop, how long requests in flight may take before their connections are cut. */
  readonly shutdownGraceMs: number;
}

/** The limits the server process uses: 16 KiB heads, 10 s to send them, 30 s per request, 35 s idle, 5 s keep-alive and grace. */
export const DEFAULT_SERVER_LIMITS: HttpServerLimits = {
  maxHeaderBytes: 16 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  socketIdleTimeoutMs: 35_000,
  shutdownGraceMs: 5_000,
};

/** A server started by {@link startHttpServer}. */
export interface RunningHttpServer {
  /** The base URL it listens on, e.g. `http://127.0.0.1:3000`. */
  readonly url: string;
  readonly port: number;
  /** Stops accepting, lets requests in flight finish (up to the grace time), then resolves. */
  close(): Promise<void>;
}

/**
 * What the server hands each request to: a Koa app's `callback()`, whose promise never rejects
 * (Koa answers every error of a request itself, through ctx.onerror), or a node:http listener.
 */
type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

// Errors node:http raises before a request reaches Koa, answered in the same JSON Error body.
const clientErrorAnswer = (code: string | undefined): ApiError => {
  if (code === 'HPE_HEADER_OVERFLOW') return apiError('headers_too_large', 'The request headers are too large');
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return apiError('request_timeout', 'The request was not received in time');
  return apiError('bad_request', 'The request is not valid HTTP');
};

const REASONS: Readonly<Record<number, string>> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/** Writes `error` as a whole HTTP answer straight to the socket, and closes the connection. */
function writeErrorAndClose(socket: Socket, error: ApiError): void {
  const body = JSON.stringify(errorBody(error));
  socket.end(
    `HTTP/1.1 ${error.status} ${REASONS[error.status] ?? 'Bad Request'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  // As Node's own handler does: no answer over one already being written on this connection.
  const answerUnderWay = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (err.code === 'ECONNRESET' || !socket.writable || answerUnderWay) {
    socket.destroy();
    return;
  }
  writeErrorAndClose(socket, clientErrorAnswer(err.code));
}

// Node would close a CONNECT connection without a word: the service is no proxy, and says so.
function answerConnect(_req: IncomingMessage, socket: Duplex): void {
  writeErrorAndClose(socket as Socket, apiError('bad_request', 'The service is not a proxy: CONNECT is not served'));
}

/** Answers `error` with its JSON Error body, and closes the connection: a request body, if any, is not read. */
function answerAndClose(res: ServerResponse, error: ApiError): void {
  const body = JSON.stringify(errorBody(error));
  res
    .writeHead(error.status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      Connection: 'close',
    })
    .end(body);
}

// Node would answer an Expect other than 100-continue with a bare 417 and no body.
function answerUnknownExpectation(_req: IncomingMessage, res: ServerResponse): void {
  answerAndClose(res, apiError('expectation_failed', 'The only expectation the service meets is "Expect: 100-continue"'));
}

const NO_HOST = apiError('bad_request', 'An HTTP/1.1 request must carry a Host header');
const UNSUPPORTED_TRANSFER_CODING = apiError(
  'unsupported_transfer_coding',
  'The only transfer coding the service reads is "Transfer-Encoding: chunked" alone; compress a body with Content-Encoding',
);

/** Why the service will not serve a request Node's parser let through, or undefined. */
function refusalOf(req: IncomingMessage): ApiError | undefined {
  // HTTP/1.1 requires Host (RFC 9112 §3.2); Node's own check (requireHostHeader) answers a bare 400.
  if (req.headers.host === undefined && req.httpVersion === '1.1') return NO_HOST;
  // RFC 9112 §6.1: 501 for a transfer coding the server does not understand, before any of the body is read.
  if (!isSupportedTransferCoding(req.headers['transfer-encoding'])) return UNSUPPORTED_TRANSFER_CODING;
  return undefined;
}

/** `handler`, for the requests the service serves; the others get their Error body, and the connection closes. */
const withUnservableRefused =
  (handler: RequestHandler): RequestListener =>
  (req, res) => {
    const refusal = refusalOf(req);
    // Not awaited: the handler answers its own errors (RequestHandler).
    if (refusal === undefined) return void handler(req, res);
    answerAndClose(res, refusal);
  };

/** The address of a server listening on `host`:`port` (`http://[::1]:3000`: an IPv6 host in brackets). */
export const serverUrl = (host: string, port: number): string => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

/**
 * Serves `handler` (a Koa app's `callback()`) on `host`:`port` (0 for any free port) with the
 * service's limits, answering requests too broken to reach Koa with the JSON Error body too.
 * Resolves once it listens.
 */
export function startHttpServer(
  handler: RequestHandler,
  options: { host: string; port: number; limits?: Partial<HttpServerLimits> },
): Promise<RunningHttpServer> {
  const limits = { ...DEFAULT_SERVER_LIMITS, ...options.limits };
  const serve = withUnservableRefused(handler);
  const server = createServer(
    {
      maxHeaderSize: limits.maxHeaderBytes,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Node checks the two timeouts above only this often (30 s by default), so check at a tenth of the shorter.
      connectionsCheckingInterval: Math.max(50, Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 10),
      requireHostHeader: false,
    },
    serve,
  );
  // With no 'timeout' listener, Node destroys a socket idle this long (0, its default, never does).
  server.setTimeout(limits.socketIdleTimeoutMs);
  server.on('clientError', answerClientError);
  server.on('connect', answerConnect);
  server.on('checkExpectation', answerUnknownExpectation);
  // A client waiting for 100 Continue is not asked for a body the service will refuse unread.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (refusalOf(req) === undefined) res.writeContinue();
    serve(req, res);
  });

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      // Connections that go idle once their request is answered are closed as they do.
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      const deadline = setTimeout(() => server.closeAllConnections(), limits.shutdownGraceMs);
      server.close(() => {
        clearInterval(sweep);
        clearTimeout(deadline);
        resolve();
      });
    });
    return closing;
  };

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      resolve({ url: serverUrl(options.host, port), port, close });
    });
  });
}
