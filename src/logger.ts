// Structured JSON logs on standard output (pino). Nothing logs request headers or keys.
// It imports nothing of the service: adapters and the configuration both depend on it.
import { pino, type Logger } from 'pino';

/** Every {@link LogLevel}, most severe first. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The pino log levels the service accepts, and `silent`. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The service's pino logger: JSON lines on standard output, each with `service: petstore`. */
export const createLogger = (level: LogLevel): Logger => pino({ level, base: { service: 'petstore' } });

/**
 * A fault as it may be logged: its type and message, never its stack trace. Logged under
 * `fault`, not `err`, because pino's `err` serializer would bring the stack back.
 */
export const describeFault = (err: unknown): { type: string; message: string } =>
  err instanceof Error ? { type: err.name, message: err.message } : { type: typeof err, message: String(err) };
