// What a process takes from the composition root beside its container: the logger it makes
// first (the container is given it), and the URL it announces once it listens.
import type { LevelWithSilent, Logger } from 'pino';
import { API_BASE_PATH } from '../adapters/http/create-http-app.js';
import { serverUrl } from '../adapters/http/http-server.js';
import { createLogger } from '../adapters/logging/pino-logger.js';
import { traceLogFields } from './tracing-bindings.js';

/**
 * The process's logger: JSON lines on standard output. Make one per process, before its
 * container. With `tracing`, each line written within a span carries its `trace_id` and
 * `span_id`, once the container has started tracing.
 */
export const createProcessLogger = (level: LevelWithSilent, tracing = false): Logger =>
  createLogger(level, tracing ? () => traceLogFields.current() : undefined);

/** The URL of the API that a process listening on `host`:`port` announces. */
export const announcedApiUrl = (host: string, port: number): string => `${serverUrl(host, port)}${API_BASE_PATH}`;
