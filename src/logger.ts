// Structured JSON logs on standard output (pino). Nothing logs request headers or keys.
import { pino, type Logger } from 'pino';
import type { LogLevel } from './config.js';

/** The service's pino logger: JSON lines on standard output, each with `service: petstore`. */
export const createLogger = (level: LogLevel): Logger => pino({ level, base: { service: 'petstore' } });

/**
 * A fault as it may be logged: its type and message, never its stack trace. Logged under
 * `fault`, not `err`, because pino's `err` serializer would bring the stack back.
 */
export const describeFault = (err: unknown): { type: string; message: string } =>
  err instanceof Error ? { type: err.name, message: err.message } : { type: typeof err, message: String(err) };
