// Structured JSON logs on standard output (pino). Nothing logs request headers or keys.
import { pino, type Logger } from 'pino';
import type { LogLevel } from './config.js';

export const createLogger = (level: LogLevel): Logger => pino({ level, base: { service: 'petstore' } });
