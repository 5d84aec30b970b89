// Structured JSON logs on standard output (pino). Nothing logs request headers or keys.
// It imports nothing of the service: adapters and the configuration both depend on it.
import { pino, type Logger } from 'pino';

/** Every {@link LogLevel}, most severe first. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The pino log levels the service accepts, and `silent`. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * How the lines reach standard output: pino's asynchronous destination (sonic-boom with
 * `sync: false`), which gathers lines until `minLength` bytes wait, or `periodicFlush`
 * milliseconds have passed, and writes them with one write(2) off the event loop; pino writes
 * what is left when the process exits. `maxWrite` bounds the string a line is appended to while
 * a write is under way: sonic-boom measures that string on every line (docs/benchmarks.md).
 */
export const LOG_DESTINATION = { minLength: 4000, maxWrite: 4096, periodicFlushMs: 100 } as const;

/**
 * The service's pino logger: JSON lines on standard output, each with `service: petstore`,
 * written at most {@link LOG_DESTINATION}`.periodicFlushMs` after they are logged.
 */
export const createLogger = (level: LogLevel): Logger =>
  pino(
    { level, base: { service: 'petstore' } },
    pino.destination({
      dest: process.stdout.fd,
      sync: false,
      minLength: LOG_DESTINATION.minLength,
      maxWrite: LOG_DESTINATION.maxWrite,
      periodicFlush: LOG_DESTINATION.periodicFlushMs,
    }),
  );

/**
 * A fault as it may be logged: its type and message, never its stack trace. Logged under
 * `fault`, not `err`, because pino's `err` serializer would bring the stack back.
 */
export const describeFault = (err: unknown): { type: string; message: string } =>
  err instanceof Error ? { type: err.name, message: err.message } : { type: typeof err, message: String(err) };
